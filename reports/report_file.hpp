#pragma once
// Where file reports land. A report is written whole to a temporary file beside the target and
// renamed over it, so a CI step never picks up half a report from an interrupted run.
#include <string>

namespace mcpspec::reports {

// "-" means standard output. Throws std::invalid_argument when the path cannot possibly be
// written (empty, a directory, parent directory missing or not writable).
void check_report_path(const std::string& path, const std::string& kind);

// Writes `content` to `path` atomically (or to standard output for "-"). Throws
// std::runtime_error naming the kind, the path and the system's reason on any failure.
void write_report(const std::string& path, const std::string& kind, const std::string& content);

}  // namespace mcpspec::reports
