#pragma once
// Reads our own JSON reports back (format "mcpspec-report", version 1) for `mcpspec report merge`.
// A report is input from outside: it is checked against docs/report-schema.json (compiled into
// the binary) before any field is used, and every problem names the file and the JSON pointer.
#include "reports/html_page.hpp"

#include <string>

namespace mcpspec::reports {

// Throws std::runtime_error "<path>: <pointer>: <problem>" for a file that cannot be read, is not
// JSON, or is not a version-1 mcpspec report. The run's label is the file name.
HtmlRun load_json_report(const std::string& path);

}  // namespace mcpspec::reports
