// HTML report and matrix page (the text of the page; tests/reports/html_browser_check.py loads it
// in Chromium), and reading JSON reports back for `mcpspec report merge`.
#include "reports/formats.hpp"
#include "reports/html_page.hpp"
#include "reports/json_report.hpp"
#include "reports/report_reader.hpp"
#include "reports/run_facts.hpp"
#include "tests/reports/sample_results.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec;
using namespace mcpspec::reports;
using mcpspec::testing::sample_info;
using mcpspec::testing::sample_results;
using mcpspec::testing::TempDir;
using mcpspec::testing::write_all;

namespace {

HtmlRun sample_run(const std::string& label = "sample") {
  auto results = sample_results();
  return HtmlRun{label, sample_info(), results, summarize(results, false)};
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("html page: every case with its anchor, verdict, area, level and tags for the filters", "[reports][html]") {
  const std::string page = html_report_page(sample_run());
  CHECK(page.starts_with("<!DOCTYPE html>"));
  CHECK(count_of(page, "<details class=\"case\"") == 7);
  CHECK_THAT(page, Catch::Contains("<details class=\"case\" id=\"case-1\" data-verdict=\"fail\" data-area=\"tools\" "
                                   "data-level=\"MUST\" data-tags=\"tools\">"));
  CHECK_THAT(page, Catch::Contains("<option value=\"xpass\">xpass</option>"));
  CHECK_THAT(page, Catch::Contains("<option value=\"resources\">resources</option>"));
  CHECK_THAT(page, Catch::Contains("<section class=\"area\" data-area=\"prompts\"><h3>prompts (2)</h3>"));
  CHECK_THAT(page, Catch::Contains("1 passed, 1 failed, 1 warning, 1 skipped"));
  CHECK_THAT(page, Catch::Contains("<span class=\"outcome-failed\">FAILED</span>"));
  // Requirement ids, spec section, expected vs received, diff, wire log with time and direction.
  CHECK_THAT(page, Catch::Contains("<tr><td>spec section</td><td>basic/lifecycle</td></tr>"));
  CHECK_THAT(page, Catch::Contains("<h4>expected</h4><pre>{\n  &quot;error&quot;"));
  CHECK_THAT(page, Catch::Contains("<h4>diff</h4><pre>/error: missing (expected an object)"));
  CHECK_THAT(page, Catch::Contains("<tr class=\"w-stderr\"><td class=\"n\">3.0&nbsp;ms</td><td>!</td><td><pre>stderr: frame-2 "));
  CHECK_THAT(page, Catch::Contains("wire log (31 lines;"));
  // The full wire log: the huge frame is not cut.
  CHECK_THAT(page, Catch::Contains("xxxTAIL"));
  // Nothing from the network.
  CHECK_THAT(page, !Catch::Contains("http://") && !Catch::Contains("https://") && !Catch::Contains("src="));
}

TEST_CASE("html page: text from the target is escaped, never markup", "[reports][html]") {
  auto run = sample_run();
  const std::string attack = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&";
  run.results[1].findings[0].received = attack;
  run.results[1].wire[0].text = attack;
  run.results[1].tags.push_back("\"><script>alert(3)</script>");
  run.results[1].id = "mcp/x/<b>id</b>";
  run.info.target = "</title><script>alert(4)</script>";
  const std::string page = html_report_page(run);
  CHECK(count_of(page, "<script") == 1);  // ours, at the end
  CHECK_THAT(page, !Catch::Contains("<img") && !Catch::Contains("<b>"));
  CHECK_THAT(page, Catch::Contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;"));
  CHECK_THAT(page, Catch::Contains("data-tags=\"tools &quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;\""));
  CHECK_THAT(page, Catch::Contains("<title>mcpspec report: &lt;/title&gt;"));
  // Control characters visible, invalid UTF-8 replaced (sample_results' hostile text).
  CHECK(page.find('\x1b') == std::string::npos);
  CHECK(mcpspec::testing::is_valid_utf8(page));
  CHECK_THAT(page, Catch::Contains("\\u001b[31mred"));
}

TEST_CASE("matrix: a requirement's verdict in a case counts only the findings that name it", "[reports][html]") {
  ScenarioResult r;
  r.requirements = {"A", "B"};
  r.verdict = Verdict::Fail;
  Finding f;
  f.requirements = {"A"};
  r.findings = {f};
  CHECK(verdict_for_requirement(r, "A") == Verdict::Fail);
  CHECK(verdict_for_requirement(r, "B") == Verdict::Pass);
  r.findings[0].requirements.clear();  // a finding naming nothing: the whole case failed
  CHECK(verdict_for_requirement(r, "B") == Verdict::Fail);
  r.verdict = Verdict::Skip;
  CHECK(verdict_for_requirement(r, "A") == Verdict::Skip);
}

TEST_CASE("matrix page: requirement x run, worst verdict per cell, links to the case", "[reports][html]") {
  auto a = sample_run("a.json");
  auto b = sample_run("b.json");
  for (auto& r : b.results) {
    r.verdict = Verdict::Pass;
    r.findings.clear();
  }
  b.summary = summarize(b.results, false);
  const std::string page = html_matrix_page({a, b});
  CHECK_THAT(page, Catch::Contains("<th>a.json</th><th>b.json</th>"));
  // TOOL-17: the failing case of run a, passing in run b; each cell links to its run's case.
  CHECK_THAT(page, Catch::Contains("<tr><td>TOOL-17</td><td class=\"cell v-fail\"><a href=\"#r0-case-1\""));
  CHECK_THAT(page, Catch::Contains("<td class=\"cell v-pass\"><a href=\"#r1-case-1\""));
  // REQ-1 appears in six cases of run a; the worst is the ERROR.
  CHECK_THAT(page, Catch::Contains("<tr><td>REQ-1</td><td class=\"cell v-error\"><a href=\"#r0-case-6\" title=\"mcp/lifecycle/shutdown-stdin [2025-11-25]\">ERROR (6)</a>"));
  // TOOL-04 is named only by the WARN's finding in run a; b's case has no finding: no cell.
  CHECK_THAT(page, Catch::Contains("<tr><td>TOOL-04</td><td class=\"cell v-warn\"><a href=\"#r0-case-2\""));
  CHECK_THAT(page, Catch::Contains("</a></td><td class=\"none\">-</td></tr>"));
  CHECK_THAT(page, Catch::Contains("id=\"r1-case-6\""));
  CHECK(count_of(page, "<details class=\"case\"") == 14);
}

TEST_CASE("report reader: a JSON report reads back to the same results", "[reports][html]") {
  TempDir dir;
  const auto results = sample_results();
  const auto path = dir.file("run.json");
  write_all(path, report_to_json(sample_info(), results, summarize(results, false)).dump());
  const auto run = load_json_report(path);
  CHECK(run.label == "run.json");
  CHECK(run.info.target == sample_info().target);
  CHECK(run.info.stale_baseline == sample_info().stale_baseline);
  REQUIRE(run.results.size() == results.size());
  CHECK(run.summary.total() == 7);
  CHECK(run.summary.fail == 1);
  const auto& f = run.results[1];
  CHECK(f.verdict == Verdict::Fail);
  CHECK(f.findings.at(0).step == 3);
  CHECK(f.findings.at(0).diff == results[1].findings[0].diff);
  CHECK(f.wire.size() == 31);
  CHECK(f.wire[2].dir == WireEntry::Dir::Stderr);
  CHECK(run.results[2].findings.at(0).level == Level::Should);
  CHECK_THAT(html_report_page(run), Catch::Contains("id=\"case-6\" data-verdict=\"error\""));
}

TEST_CASE("report reader: a bad file is an error naming the file and the place", "[reports][html]") {
  TempDir dir;
  const auto path = dir.file("bad.json");
  auto error_of = [&](const std::string& content) {
    write_all(path, content);
    try {
      load_json_report(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const auto results = sample_results();
  auto good = report_to_json(sample_info(), results, summarize(results, false));
  CHECK_THAT(error_of("{nope"), Catch::StartsWith(path + ": not valid JSON"));
  CHECK_THAT(error_of("[1,2]"), Catch::Contains("not an mcpspec JSON report"));
  auto v2 = good;
  v2["version"] = 2;
  CHECK_THAT(error_of(v2.dump()), Catch::Contains("/version: this mcpspec reads report version 1, the file has 2"));
  auto bad_verdict = good;
  bad_verdict["results"][1]["verdict"] = "maybe";
  CHECK_THAT(error_of(bad_verdict.dump()), Catch::StartsWith(path + ": /results/1/verdict"));
  auto missing = good;
  missing["results"][0].erase("wire");
  CHECK_THAT(error_of(missing.dump()), Catch::StartsWith(path + ": /results/0"));
  CHECK_THAT([&] {
    try {
      load_json_report(dir.file("absent.json"));
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  }(), Catch::Contains("absent.json: cannot open the report file"));
}
