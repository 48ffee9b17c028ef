#pragma once
// Facts every report derives the same way from a run's results: counts, areas, what failed, and
// how to re-run one case. Kept in one place so console, JSON, JUnit and Markdown never disagree.
#include "harness/results/result.hpp"
#include "harness/results/summary.hpp"

#include <string>
#include <vector>

namespace mcpspec::reports {

// Counts and the failing rule are the results' own (harness/results/summary.hpp).
using mcpspec::count_verdict;
using mcpspec::exit_code;
using mcpspec::fails_run;
using mcpspec::summarize;

// The result's area; when the runner left it empty, the id's second segment ("mcp/tools/x" ->
// "tools"), else "other". Never empty, so report groupings always have a name.
std::string area_of(const ScenarioResult& r);

struct AreaCounts {
  std::string area;
  RunSummary counts;
};
// One entry per area, sorted by name.
std::vector<AreaCounts> per_area(const std::vector<ScenarioResult>& results, bool strict);

// The verdict's name in a count sentence: "passed", "failed", "warnings", ...
std::string count_sentence(const RunSummary& s);

// Quotes for a POSIX shell: 'it'\''s'.
std::string shell_quote(const std::string& s);
// The word as is when a shell would read it unchanged, shell_quote()d otherwise.
std::string shell_word(const std::string& s);

// A command that re-runs just this case with its wire log:
// mcpspec run --server '<target>' --filter '<id>' --protocol <v> --wire
// (--client for client-role targets, --url for http(s) targets).
std::string rerun_command(const RunInfo& info, const ScenarioResult& r);

// The requirements a result is about: the ones its findings name, else the scenario's own.
std::vector<std::string> broken_requirements(const ScenarioResult& r);

// Why a case is not a plain PASS, in one cleaned line ("" for PASS): the first finding's message
// (FAIL, WARN), the skip reason, the harness error, the baseline's reason (XFAIL, XPASS).
std::string verdict_reason(const ScenarioResult& r);

// "mcp/tools/x [2025-11-25]" (just the id when the protocol is unknown).
std::string case_name(const ScenarioResult& r);

}  // namespace mcpspec::reports
