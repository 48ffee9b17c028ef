// JSON reporter: the document carries every field, is valid UTF-8, and validates against the
// published schema (docs/report-schema.json), which in turn rejects malformed reports.
#include "reports/formats.hpp"
#include "reports/json_report.hpp"
#include "reports/reporter.hpp"
#include "reports/run_facts.hpp"
#include "tests/reports/sample_results.hpp"

#include <catch2/catch.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <cmath>

using namespace mcpspec;
using namespace mcpspec::reports;
using mcpspec::testing::read_all;
using mcpspec::testing::sample_info;
using mcpspec::testing::sample_results;
using mcpspec::testing::TempDir;
using nlohmann::json;

namespace {

struct ReportSchema {
  json doc;
  valijson::Schema schema;
  ReportSchema() {
    doc = json::parse(read_all(std::string(MCPSPEC_SOURCE_DIR) + "/docs/report-schema.json"));
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(doc);
    parser.populateSchema(adapter, schema);
  }
  // Empty when valid, else the validator's complaints.
  std::string errors(const json& report) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(report);
    if (validator.validate(schema, target, &results)) return "";
    std::string out;
    valijson::ValidationResults::Error e;
    while (results.popError(e)) {
      std::string where;
      for (const auto& p : e.context) where += p;
      out += where + ": " + e.description + "\n";
    }
    return out.empty() ? "invalid" : out;
  }
};

const ReportSchema& report_schema() {
  static const ReportSchema s;
  return s;
}

json written_report(bool strict = false) {
  TempDir dir;
  const std::string path = dir.file("report.json");
  auto rep = make_reporter("json:" + path, {});
  const auto results = sample_results();
  RunInfo info = sample_info();
  info.strict = strict;
  rep->on_start(info, results.size());
  for (const auto& r : results) rep->on_result(r);
  rep->on_finish(info, results, summarize(results, strict));
  const std::string text = read_all(path);
  REQUIRE(mcpspec::testing::is_valid_utf8(text));
  return json::parse(text);
}

}  // namespace

TEST_CASE("JSON report validates against docs/report-schema.json", "[reports][json]") {
  const json report = written_report();
  INFO(report_schema().errors(report));
  CHECK(report_schema().errors(report).empty());
}

TEST_CASE("JSON report carries every field of the model", "[reports][json]") {
  const json report = written_report();
  CHECK(report["format"] == "mcpspec-report");
  CHECK(report["version"] == 1);
  CHECK(report["mcpspec"] == "0.1.0-test");
  CHECK(report["run"]["target"] == "node server.js --name 'it''s'");
  CHECK(report["run"]["started_at"] == "2025-01-02T03:04:05Z");
  CHECK(report["run"]["duration_ms"] == 4321.0);
  CHECK(report["run"]["protocols"] == json::array({"2025-11-25"}));
  CHECK(report["run"]["strict"] == false);
  CHECK(report["run"]["stale_baseline"] == json::array({"mcp/old/* [any protocol]"}));
  CHECK(report["summary"] == json{{"total", 7}, {"pass", 1}, {"fail", 1}, {"warn", 1}, {"skip", 1}, {"xfail", 1},
                                  {"xpass", 1}, {"error", 1}, {"strict", false}, {"failed", true}, {"exit_code", 1}});
  REQUIRE(report["results"].size() == 7);
  const json& fail = report["results"][1];
  CHECK(fail["id"] == "mcp/tools/call-unknown-tool");
  CHECK(fail["title"] == "Title of mcp/tools/call-unknown-tool");
  CHECK(fail["file"] == "scenarios/mcp/tools/call-unknown-tool.json");
  CHECK(fail["area"] == "tools");
  CHECK(fail["protocol"] == "2025-11-25");
  CHECK(fail["negotiated"] == "2025-11-25");
  CHECK(fail["role"] == "server");
  CHECK(fail["transport"] == "stdio");
  CHECK(fail["requirements"] == json::array({"TOOL-17"}));
  CHECK(fail["level"] == "MUST");
  CHECK(fail["section"] == "basic/lifecycle");
  CHECK(fail["tags"] == json::array({"tools"}));
  CHECK(fail["verdict"] == "fail");
  CHECK(fail["duration_ms"] == Approx(12.3));
  const json& f = fail["findings"][0];
  CHECK(f["requirements"] == json::array({"TOOL-17"}));
  CHECK(f["level"] == "MUST");
  CHECK(f["step"] == 3);
  CHECK(f["diff"] == "/error: missing (expected an object)\n/result: present, not expected");
  CHECK(f["expected"].get<std::string>().find("-32602") != std::string::npos);
  REQUIRE(fail["wire"].size() == 31);
  CHECK(fail["wire"][0] == json{{"t_ms", 0.0}, {"dir", "out"}, {"text", "frame-0 {\"jsonrpc\":\"2.0\"}"}});
  CHECK(fail["wire"][1]["dir"] == "in");
  CHECK(fail["wire"][2]["dir"] == "stderr");
  CHECK(fail["wire"][2]["t_ms"] == 3.0);
  // The whole huge frame is kept: the JSON report is the complete record.
  CHECK(fail["wire"][30]["text"].get<std::string>().size() == 100008);
  CHECK(report["results"][6]["wire"][0]["dir"] == "event");
  CHECK(report["results"][3]["reason"] == "capability 'resources' not declared by the server");

  std::vector<std::string> verdicts;
  for (const auto& r : report["results"]) verdicts.push_back(r["verdict"]);
  CHECK(verdicts == std::vector<std::string>{"pass", "fail", "warn", "skip", "xfail", "xpass", "error"});
}

TEST_CASE("JSON report keeps control characters as escapes and repairs invalid UTF-8", "[reports][json]") {
  const json report = written_report();
  const std::string message = report["results"][1]["findings"][0]["message"];
  CHECK(message.find("\x1b[31mred") != std::string::npos);  // JSON can carry it: keep the evidence exact
  CHECK(message.find(std::string("nul:") + '\0') != std::string::npos);
  CHECK(message.find("bad:\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD") != std::string::npos);
  CHECK(message.find("<b>&amp; 'y'</b>") != std::string::npos);
}

TEST_CASE("JSON report: summary follows strict, odd numbers stay schema-valid", "[reports][json]") {
  const json strict = written_report(true);
  CHECK(strict["summary"]["strict"] == true);
  CHECK(strict["run"]["strict"] == true);

  auto results = sample_results();
  results[0].duration_ms = std::nan("");
  results[1].wire[0].t_ms = -5;
  RunInfo info = sample_info();
  info.duration_ms = INFINITY;
  const json doc = report_to_json(info, results, summarize(results, false));
  CHECK(doc["results"][0]["duration_ms"] == 0.0);
  CHECK(doc["results"][1]["wire"][0]["t_ms"] == 0.0);
  CHECK(report_schema().errors(doc).empty());

  // Empty run and a result with empty strings are still valid.
  CHECK(report_schema().errors(report_to_json(RunInfo{}, {}, RunSummary{})).empty());
  ScenarioResult bare;
  bare.id = "x";
  CHECK(report_schema().errors(report_to_json(RunInfo{}, {bare}, summarize({bare}, false))).empty());
}

TEST_CASE("the report schema is not a rubber stamp", "[reports][json]") {
  const json good = written_report();
  REQUIRE(report_schema().errors(good).empty());
  auto broken = [&](auto&& mutate) {
    json doc = good;
    mutate(doc);
    return !report_schema().errors(doc).empty();
  };
  CHECK(broken([](json& d) { d["format"] = "other"; }));
  CHECK(broken([](json& d) { d["version"] = 2; }));
  CHECK(broken([](json& d) { d.erase("summary"); }));
  CHECK(broken([](json& d) { d["results"][1]["verdict"] = "passed"; }));
  CHECK(broken([](json& d) { d["results"][1]["level"] = "must"; }));
  CHECK(broken([](json& d) { d["results"][1]["extra"] = 1; }));
  CHECK(broken([](json& d) { d["results"][1]["wire"][0]["dir"] = "sideways"; }));
  CHECK(broken([](json& d) { d["results"][1]["wire"][0].erase("t_ms"); }));
  CHECK(broken([](json& d) { d["results"][1]["findings"][0]["step"] = -2; }));
  CHECK(broken([](json& d) { d["results"][1]["findings"][0]["requirements"] = "TOOL-17"; }));
  CHECK(broken([](json& d) { d["summary"]["pass"] = -1; }));
  CHECK(broken([](json& d) { d["summary"]["exit_code"] = 2; }));
  CHECK(broken([](json& d) { d["run"].erase("target"); }));
}
