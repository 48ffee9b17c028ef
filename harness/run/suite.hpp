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

struct SuiteOptions {
  RunConfig config;                      // proposed_version is set per run
  std::vector<std::string> protocols;    // one pass per version
  int jobs = 1;
  bool strict = false;
  const Baseline* baseline = nullptr;
  std::function<void(const ScenarioResult&)> on_result;  // called from worker threads, serialized
};

std::vector<ScenarioResult> run_suite(const std::vector<Scenario>& scenarios, const SuiteOptions& options);


}  // namespace mcpspec::scenario
