// JUnit reporter: well-formed XML whatever the target sent, with per-suite counts that CI
// systems compute the build status from.
#include "reports/reporter.hpp"
#include "reports/run_facts.hpp"
#include "tests/reports/sample_results.hpp"
#include "tests/reports/xml_check.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace mcpspec;
using namespace mcpspec::reports;
using mcpspec::testing::parse_xml;
using mcpspec::testing::read_all;
using mcpspec::testing::sample_info;
using mcpspec::testing::sample_results;
using mcpspec::testing::TempDir;
using mcpspec::testing::XmlNode;

namespace {

std::string write_junit(const TempDir& dir, bool strict) {
  const std::string path = dir.file("junit.xml");
  auto rep = make_reporter("junit:" + path, {});
  const auto results = sample_results();
  RunInfo info = sample_info();
  info.strict = strict;
  rep->on_finish(info, results, summarize(results, strict));
  return path;
}

const XmlNode& suite(const XmlNode& root, const std::string& name) {
  for (const auto* s : root.all("testsuite"))
    if (s->attr("name") == name) return *s;
  FAIL("no testsuite " << name);
  throw std::logic_error("unreachable");
}

const XmlNode& testcase(const XmlNode& suite, const std::string& name) {
  for (const auto* c : suite.all("testcase"))
    if (c->attr("name") == name) return *c;
  FAIL("no testcase " << name);
  throw std::logic_error("unreachable");
}

std::vector<std::string> counts(const XmlNode& s) {
  return {s.attr("tests"), s.attr("failures"), s.attr("errors"), s.attr("skipped")};
}

}  // namespace

TEST_CASE("the strict XML checker used here rejects what it must", "[reports][junit]") {
  CHECK_NOTHROW(parse_xml("<?xml version=\"1.0\"?>\n<a x=\"1\"><b>t &amp; &#10;</b></a>"));
  CHECK_THROWS(parse_xml("<a><b></a></b>"));
  CHECK_THROWS(parse_xml("<a x=\"1\" x=\"2\"/>"));
  CHECK_THROWS(parse_xml("<a>&bogus;</a>"));
  CHECK_THROWS(parse_xml("<a>a & b</a>"));
  CHECK_THROWS(parse_xml("<a x=\"<\"/>"));
  CHECK_THROWS(parse_xml(std::string("<a>\x01</a>")));
  CHECK_THROWS(parse_xml("<a>\xff</a>"));
  CHECK_THROWS(parse_xml("<a>&#1;</a>"));
  CHECK_THROWS(parse_xml("<a/><b/>"));
}

TEST_CASE("JUnit report is well-formed XML with counts per area", "[reports][junit]") {
  TempDir dir;
  const std::string xml = read_all(write_junit(dir, false));
  std::unique_ptr<XmlNode> root;
  REQUIRE_NOTHROW(root = parse_xml(xml));
  REQUIRE(root->name == "testsuites");
  CHECK(counts(*root) == std::vector<std::string>{"7", "2", "1", "2"});
  CHECK(root->attr("time") == "4.321");
  CHECK(root->all("testsuite").size() == 4);

  // tools: FAIL + WARN (not strict: the warning is no failure)
  CHECK(counts(suite(*root, "mcpspec.tools")) == std::vector<std::string>{"2", "1", "0", "0"});
  CHECK(counts(suite(*root, "mcpspec.prompts")) == std::vector<std::string>{"2", "1", "0", "1"});
  CHECK(counts(suite(*root, "mcpspec.lifecycle")) == std::vector<std::string>{"2", "0", "1", "0"});
  CHECK(counts(suite(*root, "mcpspec.resources")) == std::vector<std::string>{"1", "0", "0", "1"});
  CHECK(suite(*root, "mcpspec.tools").attr("time") == "0.025");
  CHECK(suite(*root, "mcpspec.tools").attr("timestamp") == "2025-01-02T03:04:05Z");

  // xmllint is not guaranteed on every machine; when present it is a second opinion.
  if (std::system("command -v xmllint >/dev/null 2>&1") == 0) {
    CHECK(std::system(("xmllint --noout '" + dir.file("junit.xml") + "'").c_str()) == 0);
  }
}

TEST_CASE("JUnit failure carries the findings with expected, received and diff", "[reports][junit]") {
  TempDir dir;
  const auto root = parse_xml(read_all(write_junit(dir, false)));
  const XmlNode& tc = testcase(suite(*root, "mcpspec.tools"), "mcp/tools/call-unknown-tool [2025-11-25]");
  CHECK(tc.attr("classname") == "mcpspec.tools");
  CHECK(tc.attr("time") == "0.012");
  CHECK(tc.attr("file") == "scenarios/mcp/tools/call-unknown-tool.json");
  const XmlNode* failure = tc.first("failure");
  REQUIRE(failure);
  CHECK(failure->attr("type") == "FAIL");
  CHECK_THAT(failure->attr("message"), Catch::StartsWith("unknown tool answered with a result instead of an error: "
                                                         "tool \"x\" <b>&amp; 'y'</b> ]]>"));
  CHECK_THAT(failure->text, Catch::Contains("expected:\n{\n  \"error\": {"));
  CHECK_THAT(failure->text, Catch::Contains("received:\n"));
  CHECK_THAT(failure->text, Catch::Contains("diff:\n/error: missing (expected an object)\n/result: present"));
  CHECK_THAT(failure->text, Catch::Contains("requirements TOOL-17, steps[3]"));
  // Hostile bytes arrive as visible text, invalid UTF-8 as U+FFFD.
  CHECK_THAT(failure->text, Catch::Contains("\\u001b[31mred"));
  CHECK_THAT(failure->text, Catch::Contains("bad:\xEF\xBF\xBD"));

  std::vector<std::string> reqs;
  std::string level;
  for (const auto* p : tc.first("properties")->all("property")) {
    if (p->attr("name") == "requirement") reqs.push_back(p->attr("value"));
    if (p->attr("name") == "level") level = p->attr("value");
  }
  CHECK(reqs == std::vector<std::string>{"TOOL-17"});
  CHECK(level == "MUST");
  const XmlNode* out = tc.first("system-out");
  REQUIRE(out);
  CHECK_THAT(out->text, Catch::Contains("wire log:\n"));
  CHECK_THAT(out->text, Catch::Contains("! stderr: frame-2 "));
  CHECK_THAT(out->text, Catch::Contains("xxxTAIL"));
}

TEST_CASE("JUnit maps every verdict to the right element", "[reports][junit]") {
  TempDir dir;
  const auto root = parse_xml(read_all(write_junit(dir, false)));
  const XmlNode& pass = testcase(suite(*root, "mcpspec.lifecycle"), "mcp/lifecycle/initialize-basic [2025-11-25]");
  CHECK(!pass.first("failure"));
  CHECK(!pass.first("error"));
  CHECK(!pass.first("skipped"));

  const XmlNode& warn = testcase(suite(*root, "mcpspec.tools"), "mcp/tools/list-pagination [2025-11-25]");
  CHECK(!warn.first("failure"));
  REQUIRE(warn.first("system-out"));
  CHECK_THAT(warn.first("system-out")->text, Catch::Contains("WARN (a SHOULD-level finding; fails only with --strict)"));
  CHECK_THAT(warn.first("system-out")->text, Catch::Contains("nextCursor is an empty string"));

  const XmlNode& skip = testcase(suite(*root, "mcpspec.resources"), "mcp/resources/read-text [2025-11-25]");
  REQUIRE(skip.first("skipped"));
  CHECK(skip.first("skipped")->attr("message") == "capability 'resources' not declared by the server");

  const XmlNode& xfail = testcase(suite(*root, "mcpspec.prompts"), "mcp/prompts/get-missing [2025-11-25]");
  REQUIRE(xfail.first("skipped"));
  CHECK(xfail.first("skipped")->attr("message") == "expected failure (baseline): legacy dialect answers -32601");
  CHECK(!xfail.first("failure"));

  const XmlNode& xpass = testcase(suite(*root, "mcpspec.prompts"), "mcp/prompts/list-basic [2025-11-25]");
  REQUIRE(xpass.first("failure"));
  CHECK(xpass.first("failure")->attr("type") == "XPASS");
  CHECK_THAT(xpass.first("failure")->text, Catch::Contains("was broken in 1.2"));

  const XmlNode& error = testcase(suite(*root, "mcpspec.lifecycle"), "mcp/lifecycle/shutdown-stdin [2025-11-25]");
  REQUIRE(error.first("error"));
  CHECK(error.first("error")->attr("message") == "could not spawn the target: <no such file> & \"quotes\"");
  CHECK(error.first("error")->attr("type") == "ERROR");
}

TEST_CASE("JUnit under strict turns a warning into a failure", "[reports][junit]") {
  TempDir dir;
  const auto root = parse_xml(read_all(write_junit(dir, true)));
  CHECK(counts(suite(*root, "mcpspec.tools")) == std::vector<std::string>{"2", "2", "0", "0"});
  CHECK(root->attr("failures") == "3");
  const XmlNode& warn = testcase(suite(*root, "mcpspec.tools"), "mcp/tools/list-pagination [2025-11-25]");
  REQUIRE(warn.first("failure"));
  CHECK(warn.first("failure")->attr("type") == "WARN");
  CHECK(warn.first("failure")->attr("message") == "nextCursor is an empty string");
}

TEST_CASE("JUnit stays well-formed for any bytes in any field", "[reports][junit]") {
  // Every byte value in every text field the writer touches.
  std::string all_bytes;
  for (int b = 0; b < 256; ++b) all_bytes += static_cast<char>(b);
  auto results = sample_results();
  for (auto& r : results) {
    r.id += all_bytes;
    r.area += all_bytes;
    r.reason = all_bytes;
    r.file = all_bytes;
    r.section = all_bytes;
    r.requirements.push_back(all_bytes);
    for (auto& f : r.findings) f.message = f.expected = f.received = f.diff = all_bytes;
    r.wire.push_back({1, WireEntry::Dir::Stderr, all_bytes});
  }
  TempDir dir;
  const std::string path = dir.file("junit.xml");
  RunInfo info = sample_info();
  info.target = all_bytes;
  info.started_at = all_bytes;
  make_reporter("junit:" + path, {})->on_finish(info, results, summarize(results, false));
  std::unique_ptr<XmlNode> root;
  REQUIRE_NOTHROW(root = parse_xml(read_all(path)));
  CHECK(root->attr("tests") == "7");
}

TEST_CASE("JUnit cuts runaway wire logs and says where the rest is", "[reports][junit]") {
  auto results = sample_results();
  results.resize(2);
  results[1].wire.clear();
  for (int i = 0; i < 20; ++i) {
    results[1].wire.push_back({double(i), WireEntry::Dir::In, "BIG" + std::to_string(i) + std::string(300 * 1024, 'y')});
  }
  TempDir dir;
  const std::string path = dir.file("junit.xml");
  make_reporter("junit:" + path, {})->on_finish(sample_info(), results, summarize(results, false));
  const auto root = parse_xml(read_all(path));
  const XmlNode& tc = testcase(suite(*root, "mcpspec.tools"), "mcp/tools/call-unknown-tool [2025-11-25]");
  const std::string& out = tc.first("system-out")->text;
  CHECK(out.size() < 3 * 1024 * 1024);
  CHECK_THAT(out, Catch::Contains("more bytes]"));
  CHECK_THAT(out, Catch::Contains("more wire lines; the JSON report has them all]"));
  CHECK_THAT(out, !Catch::Contains("BIG19"));
}
