// Markdown reporter: the tables a CI summary shows, a section per case to look at, skips folded
// away, and no markup injected by the target's text.
#include "reports/reporter.hpp"
#include "reports/run_facts.hpp"
#include "tests/reports/sample_results.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace mcpspec;
using namespace mcpspec::reports;
using mcpspec::testing::read_all;
using mcpspec::testing::sample_info;
using mcpspec::testing::sample_results;
using mcpspec::testing::TempDir;

namespace {

std::string write_md(const std::vector<ScenarioResult>& results, bool strict = false) {
  TempDir dir;
  const std::string path = dir.file("summary.md");
  RunInfo info = sample_info();
  info.strict = strict;
  make_reporter("md:" + path, {})->on_finish(info, results, summarize(results, strict));
  return read_all(path);
}

std::size_t occurrences(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + what.size())) ++n;
  return n;
}

// The text with the contents of fenced code blocks removed.
std::string outside_fences(const std::string& md) {
  std::istringstream in(md);
  std::string line, out;
  bool inside = false;
  while (std::getline(in, line)) {
    const auto start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, 3, "```") == 0) {
      inside = !inside;
      continue;
    }
    if (!inside) out += line + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("Markdown report has the title and the tables", "[reports][md]") {
  const std::string md = write_md(sample_results());
  CHECK_THAT(md, Catch::StartsWith("# mcpspec conformance report\n"));
  CHECK_THAT(md, Catch::Contains("**FAILED**"));
  CHECK_THAT(md, Catch::Contains("| Verdict | Count |\n|---|---:|\n| Pass | 1 |\n| Fail | 1 |\n| Warn | 1 |\n"
                                 "| Skip | 1 |\n"));
  CHECK_THAT(md, Catch::Contains("| **Total** | **7** |"));
  CHECK_THAT(md, Catch::Contains("| Area | Pass | Fail | Warn | Skip | XFail | XPass | Error |\n"));
  CHECK_THAT(md, Catch::Contains("| lifecycle | 1 | 0 | 0 | 0 | 0 | 0 | 1 |\n"));
  CHECK_THAT(md, Catch::Contains("| prompts | 0 | 0 | 0 | 0 | 1 | 1 | 0 |\n"));
  CHECK_THAT(md, Catch::Contains("| resources | 0 | 0 | 0 | 1 | 0 | 0 | 0 |\n"));
  CHECK_THAT(md, Catch::Contains("| tools | 0 | 1 | 1 | 0 | 0 | 0 | 0 |\n"));
  CHECK_THAT(md, Catch::Contains("## Stale baseline entries (1)"));
}

TEST_CASE("Markdown report has a section per FAIL, WARN, ERROR and XPASS", "[reports][md]") {
  const std::string md = write_md(sample_results());
  CHECK_THAT(md, Catch::Contains("## Cases to look at (4)"));
  CHECK_THAT(md, Catch::Contains("### FAIL `mcp/tools/call-unknown-tool` \\[2025-11-25\\]"));
  CHECK_THAT(md, Catch::Contains("### WARN `mcp/tools/list-pagination`"));
  CHECK_THAT(md, Catch::Contains("### ERROR `mcp/lifecycle/shutdown-stdin`"));
  CHECK_THAT(md, Catch::Contains("### XPASS `mcp/prompts/list-basic`"));
  CHECK_THAT(md, !Catch::Contains("### PASS"));
  CHECK_THAT(md, !Catch::Contains("### SKIP"));
  CHECK_THAT(md, !Catch::Contains("### XFAIL"));
  // Failing cases come before the (non-strict) warning.
  CHECK(md.find("### WARN") > md.find("### ERROR"));
  CHECK_THAT(md, Catch::Contains("Wire log (last 10 of 31 lines):\n\n```\n"));
  CHECK_THAT(md, Catch::Contains("  diff:\n\n  ```\n  /error: missing (expected an object)\n"));
  CHECK_THAT(md, Catch::Contains("mcpspec run --server"));
  // Skips and expected failures are folded away with their reasons.
  CHECK_THAT(md, Catch::Contains("<details><summary>Skipped: not verified (1)</summary>"));
  CHECK_THAT(md, Catch::Contains("| `mcp/resources/read-text` | 2025-11-25 | capability 'resources' not declared by the server |"));
  CHECK_THAT(md, Catch::Contains("<details><summary>Expected failures (baseline) (1)</summary>"));
  CHECK(occurrences(md, "<details>") == occurrences(md, "</details>"));
}

TEST_CASE("Markdown report escapes what the target sent", "[reports][md]") {
  const std::string md = write_md(sample_results());
  CHECK(mcpspec::testing::is_valid_utf8(md));
  for (char c : md) {
    const auto u = static_cast<unsigned char>(c);
    CHECK_FALSE(((u < 0x20 && c != '\n') || u == 0x7f));
  }
  // Outside code blocks, markup from the target is escaped (inside them it is literal anyway).
  CHECK_THAT(outside_fences(md), !Catch::Contains("<b>"));
  CHECK_THAT(md, Catch::Contains("<b>&amp;"));  // inside a fenced block, kept as sent
  CHECK_THAT(md, Catch::Contains("\\<b\\>\\&amp; 'y'\\</b\\>"));
  CHECK_THAT(md, Catch::Contains("Harness error: could not spawn the target: \\<no such file\\> \\& \"quotes\""));
  // Every fence that opens also closes: fences (lines of backticks, maybe indented) come in pairs.
  std::istringstream in(md);
  std::string line;
  int fences = 0;
  while (std::getline(in, line)) {
    const auto start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, 3, "```") == 0) ++fences;
  }
  CHECK(fences % 2 == 0);
  CHECK(fences > 0);
}

TEST_CASE("Markdown fences outgrow backticks in the evidence", "[reports][md]") {
  auto results = sample_results();
  results[1].findings[0].received = "``````\n# not a heading\n``````";
  const std::string md = write_md(results);
  CHECK_THAT(md, Catch::Contains("  ```````\n  ``````\n  # not a heading\n  ``````\n  ```````\n"));
}

TEST_CASE("Markdown report stays under the CI summary size limit", "[reports][md]") {
  std::vector<ScenarioResult> many;
  auto sample = sample_results()[1];
  sample.wire.pop_back();  // the 100 KB frame only slows this test down
  for (int i = 0; i < 2000; ++i) {
    auto r = sample;
    r.id = "mcp/tools/case-" + std::to_string(i);
    many.push_back(r);
  }
  const std::string md = write_md(many);
  CHECK(md.size() < 1024 * 1024);
  CHECK_THAT(md, Catch::Contains("more cases left out to keep this page small"));
  CHECK_THAT(md, Catch::Contains("| tools | 0 | 2000 |"));
}

TEST_CASE("Markdown report of a clean run says so", "[reports][md]") {
  auto results = sample_results();
  results.resize(1);
  const std::string md = write_md(results);
  CHECK_THAT(md, Catch::Contains("**PASSED** — 1 passed, 0 failed, 0 warnings, 0 skipped"));
  CHECK_THAT(md, !Catch::Contains("## Cases to look at"));
}
