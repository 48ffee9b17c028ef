// The machine-readable report: one JSON document with every field of the result model, for
// dashboards and for tools that compare runs. Its shape is versioned and described by
// docs/report-schema.json; a change that breaks readers bumps kJsonReportVersion.
#include "reports/formats.hpp"
#include "reports/json_report.hpp"
#include "reports/report_file.hpp"
#include "reports/report_text.hpp"
#include "reports/run_facts.hpp"

#include <cmath>

namespace mcpspec::reports {

using nlohmann::json;

namespace {

// nlohmann refuses to dump invalid UTF-8; targets send it anyway, so repair it on the way in.
json str(const std::string& s) { return valid_utf8(s); }

json strings(const std::vector<std::string>& v) {
  json a = json::array();
  for (const auto& s : v) a.push_back(str(s));
  return a;
}

// NaN or infinity would dump as null and break the schema; a negative time is a clock glitch.
double finite_ms(double ms) { return std::isfinite(ms) && ms > 0 ? ms : 0.0; }

json finding_json(const Finding& f) {
  return {{"requirements", strings(f.requirements)},
          {"level", level_name(f.level)},
          {"message", str(f.message)},
          {"step", f.step},
          {"expected", str(f.expected)},
          {"received", str(f.received)},
          {"diff", str(f.diff)}};
}

json result_json(const ScenarioResult& r) {
  json findings = json::array();
  for (const auto& f : r.findings) findings.push_back(finding_json(f));
  json wire = json::array();
  for (const auto& w : r.wire) {
    wire.push_back({{"t_ms", finite_ms(w.t_ms)}, {"dir", wire_dir_name(w.dir)}, {"text", str(w.text)}});
  }
  return {{"id", str(r.id)},
          {"title", str(r.title)},
          {"file", str(r.file)},
          {"area", str(area_of(r))},
          {"protocol", str(r.protocol)},
          {"negotiated", str(r.negotiated)},
          {"role", str(r.role)},
          {"transport", str(r.transport)},
          {"requirements", strings(r.requirements)},
          {"level", level_name(r.level)},
          {"section", str(r.section)},
          {"tags", strings(r.tags)},
          {"verdict", verdict_name(r.verdict)},
          {"reason", str(r.reason)},
          {"duration_ms", finite_ms(r.duration_ms)},
          {"findings", std::move(findings)},
          {"wire", std::move(wire)}};
}

class JsonReporter final : public Reporter {
 public:
  explicit JsonReporter(std::string path) : path_(std::move(path)) {}
  void on_finish(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) override {
    write_report(path_, "json", report_to_json(info, results, s).dump(2) + "\n");
  }

 private:
  std::string path_;
};

}  // namespace

const char* wire_dir_name(WireEntry::Dir d) {
  switch (d) {
    case WireEntry::Dir::Out: return "out";
    case WireEntry::Dir::In: return "in";
    case WireEntry::Dir::Stderr: return "stderr";
    case WireEntry::Dir::Event: return "event";
  }
  return "event";
}

json report_to_json(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) {
  json out = json::array();
  for (const auto& r : results) out.push_back(result_json(r));
  return {{"format", "mcpspec-report"},
          {"version", kJsonReportVersion},
          {"mcpspec", str(info.mcpspec_version.empty() ? std::string(MCPSPEC_VERSION) : info.mcpspec_version)},
          {"run",
           {{"target", str(info.target)},
            {"started_at", str(info.started_at)},
            {"duration_ms", finite_ms(info.duration_ms)},
            {"protocols", strings(info.protocols)},
            {"strict", info.strict},
            {"stale_baseline", strings(info.stale_baseline)}}},
          {"summary",
           {{"total", s.total()},
            {"pass", s.pass},
            {"fail", s.fail},
            {"warn", s.warn},
            {"skip", s.skip},
            {"xfail", s.xfail},
            {"xpass", s.xpass},
            {"error", s.error},
            {"strict", s.strict},
            {"failed", s.failed()},
            {"exit_code", exit_code(s)}}},
          {"results", std::move(out)}};
}

std::unique_ptr<Reporter> make_json_reporter(const std::string& path) {
  return std::make_unique<JsonReporter>(path);
}

}  // namespace mcpspec::reports
