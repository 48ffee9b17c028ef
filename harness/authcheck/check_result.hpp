#pragma once
// One authorization check as a result the reporters read: its id, the AUTH rows it judges (level
// and section from the catalog of the run's version), its findings, the HTTP exchanges as the
// wire log, and a verdict: FAIL/WARN from the findings, SKIP or ERROR with a reason.
#include "harness/authcheck/http_probe.hpp"
#include "harness/results/result.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/util/clock.hpp"

#include <optional>
#include <string>
#include <vector>

namespace mcpspec::authcheck {

class CheckResult {
 public:
  CheckResult(const scenario::RequirementCatalog& catalog, const std::string& version, std::string id,
              std::string title, std::vector<std::string> requirements);

  // A finding at the catalog level of `requirement` in this version.
  void violation(const std::string& requirement, const std::string& message, const std::string& received = "");
  // A finding at an explicit level (a lenient reading: WARN where the row says so).
  void finding(Level level, const std::vector<std::string>& requirements, const std::string& message,
               const std::string& received = "");
  void note(const std::string& text);  // a harness event in the wire log
  void exchange(const ProbeRequest& req, const ProbeResponse& resp);
  void skip(const std::string& reason);
  void error(const std::string& reason);
  Level level_of(const std::string& requirement) const;
  bool judges_anything() const { return !r_.requirements.empty(); }

  ScenarioResult finish();

 private:
  const scenario::RequirementCatalog& catalog_;
  std::string version_;
  ScenarioResult r_;
  std::optional<Verdict> forced_;
  Clock::time_point start_ = Clock::now();
};

}  // namespace mcpspec::authcheck
