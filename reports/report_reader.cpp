#include "reports/report_reader.hpp"

#include "harness/jsonschema/compiled_schema.hpp"
#include "harness/util/resources.hpp"
#include "reports/run_facts.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mcpspec::reports {

namespace {

using nlohmann::json;

const CompiledSchema& report_schema() {
  static const CompiledSchema schema = [] {
    const auto text = resources::find("docs/report-schema.json");
    if (!text) throw std::logic_error("docs/report-schema.json is not compiled into this mcpspec");
    return CompiledSchema(json::parse(*text));
  }();
  return schema;
}

template <typename Enum, std::size_t N>
Enum by_name(const std::string& name, const std::pair<const char*, Enum> (&table)[N]) {
  for (const auto& [n, v] : table)
    if (name == n) return v;
  return table[0].second;  // unreachable after the schema check
}

Verdict verdict_of(const std::string& name) {
  static constexpr std::pair<const char*, Verdict> kTable[] = {
      {"pass", Verdict::Pass},   {"fail", Verdict::Fail},   {"warn", Verdict::Warn}, {"skip", Verdict::Skip},
      {"xfail", Verdict::XFail}, {"xpass", Verdict::XPass}, {"error", Verdict::Error}};
  return by_name(name, kTable);
}

Level level_of(const std::string& name) {
  static constexpr std::pair<const char*, Level> kTable[] = {
      {"MUST", Level::Must}, {"SHOULD", Level::Should}, {"MAY", Level::May}, {"INFO", Level::Info}};
  return by_name(name, kTable);
}

WireEntry::Dir dir_of(const std::string& name) {
  static constexpr std::pair<const char*, WireEntry::Dir> kTable[] = {{"out", WireEntry::Dir::Out},
                                                                      {"in", WireEntry::Dir::In},
                                                                      {"stderr", WireEntry::Dir::Stderr},
                                                                      {"event", WireEntry::Dir::Event}};
  return by_name(name, kTable);
}

std::vector<std::string> strings(const json& a) { return a.get<std::vector<std::string>>(); }

ScenarioResult result_of(const json& j) {
  ScenarioResult r;
  r.id = j["id"];
  r.title = j["title"];
  r.file = j["file"];
  r.area = j["area"];
  r.protocol = j["protocol"];
  r.negotiated = j["negotiated"];
  r.role = j["role"];
  r.transport = j["transport"];
  r.requirements = strings(j["requirements"]);
  r.level = level_of(j["level"]);
  r.section = j["section"];
  r.tags = strings(j["tags"]);
  r.verdict = verdict_of(j["verdict"]);
  r.reason = j["reason"];
  r.duration_ms = j["duration_ms"];
  for (const auto& f : j["findings"]) {
    Finding x;
    x.requirements = strings(f["requirements"]);
    x.level = level_of(f["level"]);
    x.message = f["message"];
    x.step = f["step"];
    x.expected = f["expected"];
    x.received = f["received"];
    x.diff = f["diff"];
    r.findings.push_back(std::move(x));
  }
  for (const auto& w : j["wire"]) r.wire.push_back({w["t_ms"].get<double>(), dir_of(w["dir"]), w["text"]});
  return r;
}

}  // namespace

HtmlRun load_json_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open the report file", path));
  std::ostringstream text;
  text << in.rdbuf();
  json doc;
  try {
    doc = json::parse(text.str());
  } catch (const json::parse_error& e) {
    throw std::runtime_error(fmt::format("{}: not valid JSON ({})", path, e.what()));
  }
  if (!doc.is_object() || doc.value("format", json()) != "mcpspec-report")
    throw std::runtime_error(fmt::format("{}: not an mcpspec JSON report (no \"format\": \"mcpspec-report\"; write one with "
                                         "mcpspec run --report json:PATH)",
                                         path));
  if (doc.value("version", json()) != 1)
    throw std::runtime_error(fmt::format("{}: /version: this mcpspec reads report version 1, the file has {}", path,
                                         doc.value("version", json()).dump()));
  const auto issues = report_schema().validate(doc, 1);
  if (!issues.empty())
    throw std::runtime_error(fmt::format("{}: {}: {}", path, issues.front().pointer.empty() ? "/" : issues.front().pointer,
                                         issues.front().message));

  HtmlRun run;
  run.label = std::filesystem::path(path).filename().string();
  const auto& r = doc["run"];
  run.info.mcpspec_version = doc["mcpspec"];
  run.info.target = r["target"];
  run.info.started_at = r["started_at"];
  run.info.duration_ms = r["duration_ms"];
  run.info.protocols = strings(r["protocols"]);
  run.info.strict = r["strict"];
  run.info.stale_baseline = strings(r["stale_baseline"]);
  for (const auto& j : doc["results"]) run.results.push_back(result_of(j));
  // Counted again from the results, by the same rule as the run: a hand-edited summary cannot disagree.
  run.summary = summarize(run.results, run.info.strict);
  return run;
}

}  // namespace mcpspec::reports
