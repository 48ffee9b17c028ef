#pragma once
// The HTML report: one self-contained page (inline style and script, no network) with the run's
// summary, its cases by area with verdict colours, filters, and per case the requirements, spec
// section, expected vs received, diff and full wire log. Several runs make a matrix page:
// requirement x run, each cell linking to the case behind it, the runs' cases below.
// Every string from a run (ids, messages, wire frames, stderr) is escaped: it is text, never markup.
#include "harness/results/result.hpp"

#include <string>
#include <vector>

namespace mcpspec::reports {

// One run as a page shows it. `label` names the run in a matrix column (e.g. its report file).
struct HtmlRun {
  std::string label;
  RunInfo info;
  std::vector<ScenarioResult> results;
  RunSummary summary;
};

std::string html_report_page(const HtmlRun& run);
std::string html_matrix_page(const std::vector<HtmlRun>& runs);

// The verdict one result gives one of its requirements in the matrix: a FAIL, WARN or XFAIL whose
// findings name requirements counts only for those; the others the case also lists held (PASS).
Verdict verdict_for_requirement(const ScenarioResult& r, const std::string& requirement);

}  // namespace mcpspec::reports
