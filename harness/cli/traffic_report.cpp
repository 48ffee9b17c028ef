#include "harness/cli/traffic_report.hpp"

#include "harness/cli/commands.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/results/summary.hpp"
#include "reports/reporter.hpp"

#include <stdexcept>

namespace mcpspec::cli {

FindingSink::FindingSink(const std::string& path, const char* prefix) : prefix_(prefix) {
  if (path.empty() || path == "-") {
    file_ = path.empty() ? stderr : stdout;
    return;
  }
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw UsageError("--findings: cannot create " + path);
  owned_ = true;
}

FindingSink::~FindingSink() {
  if (owned_) std::fclose(file_);
}

void FindingSink::write(const proxy::TrafficFinding& f) {
  if (f.finding.level == Level::Must) any_must_ = true;
  std::string line = prefix_ + proxy::finding_line(f) + "\n";
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

namespace {

std::vector<std::unique_ptr<reports::Reporter>> make_reporters(const std::vector<std::string>& specs) {
  std::vector<std::unique_ptr<reports::Reporter>> out;
  for (const auto& spec : specs) {
    if (spec == "console" || spec.rfind("console:", 0) == 0)
      throw UsageError("--report " + spec + ": the finding lines are the console output; use json:, junit:, md: or html:");
    try {
      out.push_back(reports::make_reporter(spec, reports::ReportOptions{}));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--report: ") + e.what());
    }
  }
  return out;
}

}  // namespace

void check_report_specs(const std::vector<std::string>& specs) { make_reporters(specs); }

void write_traffic_reports(const std::vector<std::string>& specs, const std::vector<ScenarioResult>& results,
                           const std::string& version, const std::string& target, double duration_ms) {
  if (specs.empty()) return;
  auto reporters = make_reporters(specs);
  RunInfo info;
  info.mcpspec_version = MCPSPEC_VERSION;
  info.target = target;
  info.started_at = iso_now();
  info.duration_ms = duration_ms;
  info.protocols = {version};
  auto summary = summarize(results, false);
  for (auto& r : reporters) {
    r->on_start(info, results.size());
    for (const auto& result : results) r->on_result(result);
    r->on_finish(info, results, summary);
  }
}

}  // namespace mcpspec::cli
