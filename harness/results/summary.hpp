#pragma once
// What a run's results add up to: the counts per verdict and the one rule that decides whether a
// run failed. The CLI's exit status, every report's headline and the console's list of failing
// cases all read it here, so they can never disagree.
#include "harness/results/result.hpp"

#include <vector>

namespace mcpspec {

// Does this verdict make the run fail? FAIL, XPASS and ERROR always; WARN under --strict.
bool fails_run(Verdict v, bool strict);

// Adds one verdict to the counts.
void count_verdict(RunSummary& s, Verdict v);
RunSummary summarize(const std::vector<ScenarioResult>& results, bool strict);

// 0 nothing failed, 1 failures. 2 is the CLI's own (usage or harness error) and never comes from
// a summary.
int exit_code(const RunSummary& s);

}  // namespace mcpspec
