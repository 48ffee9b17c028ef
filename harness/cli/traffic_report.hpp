#pragma once
// What `mcpspec proxy` and `mcpspec validate --trace` share: where finding lines go, and the
// reports written at the end from the judged traffic (one result for the whole session).
#include "harness/proxy/traffic_judge.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace mcpspec::cli {

// One finding line each, flushed at once (a host's log shows it while the session runs).
class FindingSink {
 public:
  // `path` empty: standard error; "-": standard output. Throws UsageError naming the path when it cannot be created.
  explicit FindingSink(const std::string& path, const char* prefix);
  ~FindingSink();
  FindingSink(const FindingSink&) = delete;
  FindingSink& operator=(const FindingSink&) = delete;
  void write(const proxy::TrafficFinding& f);
  bool any_must() const { return any_must_; }

 private:
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::string prefix_;
  bool any_must_ = false;
};

// Checks every --report spec now (a typo fails before the session, not after). Throws UsageError.
void check_report_specs(const std::vector<std::string>& specs);

// Writes the sessions' results (one per MCP session) to every report spec ("json:PATH", ...).
void write_traffic_reports(const std::vector<std::string>& specs, const std::vector<ScenarioResult>& results,
                           const std::string& version, const std::string& target, double duration_ms);

}  // namespace mcpspec::cli
