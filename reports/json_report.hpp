#pragma once
// The JSON report as a value (format "mcpspec-report", version 1; schema: docs/report-schema.json).
// Separate from the writer so other writers and tests can build on the same document.
#include "harness/results/result.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace mcpspec::reports {

inline constexpr int kJsonReportVersion = 1;

// Every field of the model; all strings are valid UTF-8 (invalid bytes became U+FFFD).
nlohmann::json report_to_json(const RunInfo& info, const std::vector<ScenarioResult>& results,
                              const RunSummary& summary);

const char* wire_dir_name(WireEntry::Dir d);  // "out", "in", "stderr", "event"

}  // namespace mcpspec::reports
