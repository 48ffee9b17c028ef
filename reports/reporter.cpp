// Turns a --report argument into a reporter. Mistakes here are usage errors (exit 2), caught
// before the run starts so a long run is never wasted on a typo in a report path.
#include "reports/formats.hpp"
#include "reports/report_file.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace mcpspec::reports {

std::unique_ptr<Reporter> make_reporter(const std::string& spec, const ReportOptions& options) {
  constexpr const char* kKnown = "console, json:PATH, junit:PATH, md:PATH or html:PATH (PATH '-' = standard output)";
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const bool has_path = colon != std::string::npos;
  const std::string path = has_path ? spec.substr(colon + 1) : std::string();

  if (kind == "console") {
    if (has_path) {
      throw std::invalid_argument(
          fmt::format("report '{}': the console report takes no path (it writes to the terminal)", spec));
    }
    return make_console_reporter(options);
  }
  if (kind == "json" || kind == "junit" || kind == "md" || kind == "html") {
    if (path.empty()) {
      throw std::invalid_argument(fmt::format("report '{}': {} needs a path, e.g. {}:report.{} ({}:- for standard output)",
                                              spec, kind, kind, kind == "junit" ? "xml" : kind, kind));
    }
    check_report_path(path, kind);
    if (kind == "json") return make_json_reporter(path);
    if (kind == "junit") return make_junit_reporter(path);
    if (kind == "html") return make_html_reporter(path);
    return make_markdown_reporter(path);
  }
  throw std::invalid_argument(fmt::format("unknown report kind '{}' in '{}': use {}", kind, spec, kKnown));
}

}  // namespace mcpspec::reports
