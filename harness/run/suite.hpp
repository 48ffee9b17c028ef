#pragma once
// Runs many scenarios (each once per proposed protocol version) with bounded parallelism, applies
// the baseline, and hands every finished result to a callback as it completes.
#include "harness/scenario/model.hpp"
#include "harness/results/result.hpp"
#include "harness/scenario/runner.hpp"

#include <functional>
#include <string>
#include <vector>

namespace mcpspec {
class Baseline;
}

namespace mcpspec::scenario {

// Scenarios run in parallel when --jobs is not given. They spend their time waiting on the target,
// not on a core, so the default does not follow the core count; the number comes from
// bench/default-run (docs/performance.md), and a target that cannot take it gets fewer (throttle.hpp).
constexpr int kDefaultJobs = 16;

struct SuiteOptions {
  RunConfig config;                      // proposed_version is set per run
  std::vector<std::string> protocols;    // one pass per version
  int jobs = 1;                          // at most this many at once (throttle.hpp may run fewer)
  bool strict = false;
  const Baseline* baseline = nullptr;
  std::function<void(const ScenarioResult&)> on_result;  // called from worker threads, serialized
  // A line for the user when the run changes its parallelism (the target could not take it).
  std::function<void(const std::string&)> on_note;       // serialized with on_result
};

std::vector<ScenarioResult> run_suite(const std::vector<Scenario>& scenarios, const SuiteOptions& options);


}  // namespace mcpspec::scenario
