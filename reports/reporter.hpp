#pragma once
// The report writers' common interface. A run drives one or more reporters: on_start once,
// on_result for every finished scenario (possibly from several runner threads at once), on_finish
// once with everything. File reporters write in on_finish; the console streams as results arrive.
#include "harness/results/result.hpp"

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace mcpspec::reports {

struct ReportOptions {
  bool wire = false;                // console: print the full wire log of failing cases (not only the last lines)
  bool color = false;               // console: ANSI colours (caller decides: tty and no NO_COLOR)
  bool verbose = false;             // console: also list passing and skipped cases one per line, full evidence
  bool quiet = false;               // console: only the failing cases (one line each) and the count line, for CI logs
  bool progress = false;            // console: a live "[n/N]" line rewritten in place (caller decides: a tty only)
  std::ostream* console = nullptr;  // where console output goes (std::cout by default)
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void on_start(const RunInfo& info, std::size_t planned) {
    (void)info;
    (void)planned;
  }
  // Called from several threads: implementations serialize inside.
  virtual void on_result(const ScenarioResult& r) { (void)r; }
  // Throws std::runtime_error when the report cannot be written (the CLI exits 2).
  virtual void on_finish(const RunInfo& info, const std::vector<ScenarioResult>& results,
                         const RunSummary& s) = 0;
};

// spec: "console", "json:PATH", "junit:PATH", "md:PATH", "html:PATH" (PATH "-" = standard output).
// Throws std::invalid_argument naming the problem for an unknown kind, a missing path, or a path
// whose directory does not exist (checked now, so a typo fails before a long run, not after it).
std::unique_ptr<Reporter> make_reporter(const std::string& spec, const ReportOptions& options);

}  // namespace mcpspec::reports
