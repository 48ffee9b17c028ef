#pragma once
// Constructors of the concrete reporters, one per format file; only the factory (reporter.cpp)
// and the tests use them directly.
#include "reports/reporter.hpp"

#include <memory>
#include <string>

namespace mcpspec::reports {

std::unique_ptr<Reporter> make_console_reporter(const ReportOptions& options);
// `path` is a file path or "-" for standard output.
std::unique_ptr<Reporter> make_json_reporter(const std::string& path);
std::unique_ptr<Reporter> make_junit_reporter(const std::string& path);
std::unique_ptr<Reporter> make_markdown_reporter(const std::string& path);
std::unique_ptr<Reporter> make_html_reporter(const std::string& path);

}  // namespace mcpspec::reports
