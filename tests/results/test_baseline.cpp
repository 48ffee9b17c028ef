// Baseline files: strict loading with errors that point into the file, glob and protocol
// matching, stale entries, the verdict table, and writing a baseline from a run.
#include "harness/results/baseline.hpp"
#include "tests/reports/sample_results.hpp"

#include <catch2/catch.hpp>

#include <thread>

using namespace mcpspec;
using mcpspec::testing::sample_results;
using mcpspec::testing::TempDir;
using nlohmann::json;

namespace {

std::string load_error(const TempDir& dir, const std::string& text) {
  const std::string path = dir.file("baseline.json");
  mcpspec::testing::write_all(path, text);
  try {
    Baseline::load(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(loaded)";
}

std::string doc_with(const std::string& entries) {
  return R"({"format": "mcpspec-baseline", "version": 1, "expected_failures": [)" + entries + "]}";
}

Baseline from(const std::string& entries) { return Baseline::from_json(json::parse(doc_with(entries)), "test"); }

}  // namespace

TEST_CASE("baseline loads a valid file", "[reports][baseline]") {
  TempDir dir;
  const std::string path = dir.file("b.json");
  mcpspec::testing::write_all(path, doc_with(R"({"id": "mcp/tools/call-unknown-tool", "protocol": "2025-11-25",
      "reason": "legacy error code"}, {"id": "mcp/prompts/*", "reason": "prompts not done"})"));
  const Baseline b = Baseline::load(path);
  REQUIRE(b.entries().size() == 2);
  CHECK(b.entries()[0].id == "mcp/tools/call-unknown-tool");
  CHECK(b.entries()[0].protocol == "2025-11-25");
  CHECK(b.entries()[0].reason == "legacy error code");
  CHECK(b.entries()[1].protocol.empty());
  CHECK(b.stale().size() == 2);
  CHECK(Baseline().match("anything", "2025-11-25") == nullptr);
  CHECK(Baseline().stale().empty());
}

TEST_CASE("baseline load errors name the file and the JSON pointer", "[reports][baseline]") {
  TempDir dir;
  const std::string f = dir.file("baseline.json");
  CHECK_THAT(load_error(dir, "{\"format\": "), Catch::StartsWith(f + ": top level: not valid JSON: ") &&
                                                   Catch::Contains("line 1"));
  CHECK_THAT(load_error(dir, "\xff"), Catch::StartsWith(f + ": top level: not valid JSON"));
  // A number beyond a double is out_of_range to nlohmann, not a parse error: still a load error.
  CHECK_THAT(load_error(dir, R"({"version": 1e999})"), Catch::StartsWith(f + ": top level: not valid JSON"));
  CHECK(load_error(dir, "[]") == f + ": top level: expected a JSON object, got array");
  CHECK(load_error(dir, R"({"version": 1, "expected_failures": []})") ==
        f + ": /format: missing; expected \"mcpspec-baseline\"");
  CHECK(load_error(dir, R"({"format": "mcpspec-report", "version": 1, "expected_failures": []})") ==
        f + ": /format: expected \"mcpspec-baseline\", got \"mcpspec-report\"");
  CHECK(load_error(dir, R"({"format": "mcpspec-baseline", "version": 2, "expected_failures": []})") ==
        f + ": /version: unsupported version 2 (this mcpspec reads version 1)");
  CHECK(load_error(dir, R"({"format": "mcpspec-baseline", "version": "1", "expected_failures": []})") ==
        f + ": /version: unsupported version \"1\" (this mcpspec reads version 1)");
  CHECK(load_error(dir, R"({"format": "mcpspec-baseline", "version": 1})") ==
        f + ": /expected_failures: missing; expected an array");
  CHECK(load_error(dir, R"({"format": "mcpspec-baseline", "version": 1, "expected_failures": {}})") ==
        f + ": /expected_failures: expected an array, got object");
  CHECK(load_error(dir, R"({"format": "mcpspec-baseline", "version": 1, "expected_failures": [], "x": 1})") ==
        f + ": /x: unknown key (allowed: format, version, expected_failures, comment)");
  const std::string ok = R"({"id": "a", "reason": "r"})";
  CHECK(load_error(dir, doc_with(ok + ", 5")) == f + ": /expected_failures/1: expected an object with id and reason, got number");
  CHECK(load_error(dir, doc_with(ok + R"(, {"reason": "r"})")) ==
        f + ": /expected_failures/1/id: missing; expected a non-empty string");
  CHECK(load_error(dir, doc_with(ok + R"(, {"id": "b", "reason": "r"}, {"id": "c", "reason": "r"}, {"id": 7, "reason": "r"})")) ==
        f + ": /expected_failures/3/id: expected a non-empty string, got number");
  CHECK(load_error(dir, doc_with(R"({"id": "", "reason": "r"})")) == f + ": /expected_failures/0/id: must not be empty");
  CHECK(load_error(dir, doc_with(R"({"id": "a"})")) == f + ": /expected_failures/0/reason: missing; expected a non-empty string");
  CHECK(load_error(dir, doc_with(R"({"id": "a", "reason": ["r"]})")) ==
        f + ": /expected_failures/0/reason: expected a non-empty string, got array");
  CHECK(load_error(dir, doc_with(R"({"id": "a", "reason": "r", "protocol": null})")) ==
        f + ": /expected_failures/0/protocol: expected a non-empty string, got null");
  CHECK(load_error(dir, doc_with(R"({"id": "a", "reason": "r", "protocl": "2025-11-25"})")) ==
        f + ": /expected_failures/0/protocl: unknown key (allowed: id, protocol, reason)");
  CHECK_THAT(load_error(dir, doc_with(R"({"id": "a", "reason": "r", "protocol": "2025-11-5"})")),
             Catch::StartsWith(f + ": /expected_failures/0/protocol: \"2025-11-5\" is not a protocol version"));
  CHECK(load_error(dir, doc_with(ok + "," + ok)) ==
        f + ": /expected_failures/1: duplicate of /expected_failures/0 (a [any protocol])");
  CHECK_THAT(load_error(dir, ""), Catch::StartsWith(f + ": top level: not valid JSON"));

  const std::string missing = dir.file("nope.json");
  try {
    Baseline::load(missing);
    FAIL("expected an exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == missing + ": top level: cannot read the baseline file (missing or not readable)");
  }
}

TEST_CASE("baseline matches ids by glob and protocols exactly or by glob", "[reports][baseline]") {
  const Baseline b = from(R"(
    {"id": "mcp/tools/*", "reason": "tools glob"},
    {"id": "mcp/tools/call-unknown-tool", "reason": "exact any"},
    {"id": "mcp/tools/call-unknown-tool", "protocol": "2025-11-25", "reason": "exact 2025-11-25"},
    {"id": "mcp/tools/list-?", "protocol": "2024-11-05", "reason": "glob old"},
    {"id": "mcp/resources/read", "protocol": "2025-*", "reason": "2025 only"},
    {"id": "mcp/never/matches", "reason": "stale"})");
  auto reason = [&](const std::string& id, const std::string& p) {
    const auto* e = b.match(id, p);
    return e ? e->reason : std::string("(none)");
  };
  // Most specific wins: exact id + protocol, then exact id, then glob + protocol, then glob.
  CHECK(reason("mcp/tools/call-unknown-tool", "2025-11-25") == "exact 2025-11-25");
  CHECK(reason("mcp/tools/call-unknown-tool", "2025-06-18") == "exact any");
  CHECK(reason("mcp/tools/list-a", "2024-11-05") == "glob old");
  CHECK(reason("mcp/tools/list-a", "2025-03-26") == "tools glob");
  CHECK(reason("mcp/tools/list-ab", "2024-11-05") == "tools glob");  // '?' is one character
  CHECK(reason("mcp/tools/deep/nested", "2024-11-05") == "tools glob");  // '*' crosses '/'
  CHECK(reason("mcp/resources/read", "2025-03-26") == "2025 only");
  CHECK(reason("mcp/resources/read", "2024-11-05") == "(none)");
  CHECK(reason("mcp/tool", "2025-11-25") == "(none)");
  CHECK(reason("MCP/TOOLS/x", "2025-11-25") == "(none)");  // case matters
  CHECK(b.stale() == std::vector<std::string>{"mcp/never/matches [any protocol]"});
}

TEST_CASE("baseline stale() lists entries nothing matched", "[reports][baseline]") {
  const Baseline b = from(R"({"id": "a", "protocol": "2025-11-25", "reason": "r"}, {"id": "b", "reason": "r"})");
  CHECK(b.stale() == std::vector<std::string>{"a [2025-11-25]", "b [any protocol]"});
  CHECK(b.match("a", "2024-11-05") == nullptr);
  CHECK(b.stale().size() == 2);
  CHECK(b.match("a", "2025-11-25") != nullptr);
  CHECK(b.stale() == std::vector<std::string>{"b [any protocol]"});
  CHECK(b.match("b", "2024-11-05") != nullptr);
  CHECK(b.stale().empty());
}

TEST_CASE("baseline stale(protocols) leaves out entries for versions the run did not use", "[reports][baseline]") {
  const Baseline b = from(R"({"id": "a", "protocol": "2026-07-28", "reason": "r"}, {"id": "b", "protocol": "2025-*", "reason": "r"}, {"id": "c", "reason": "r"})");
  CHECK(b.stale({"2025-11-25"}) == std::vector<std::string>{"b [2025-*]", "c [any protocol]"});
  CHECK(b.stale({"2026-07-28"}) == std::vector<std::string>{"a [2026-07-28]", "c [any protocol]"});
  CHECK(b.stale({"2024-11-05", "2026-07-28"}).size() == 2);
  CHECK(b.stale().size() == 3);
}

TEST_CASE("baseline match is safe from several threads", "[reports][baseline]") {
  std::string entries;
  for (int i = 0; i < 64; ++i) entries += std::string(i ? "," : "") + R"({"id": "case-)" + std::to_string(i) + R"(", "reason": "r"})";
  const Baseline b = from(entries);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&b, t] {
      for (int i = t; i < 64; i += 4) (void)b.match("case-" + std::to_string(i), "2025-11-25");
    });
  }
  for (auto& th : threads) th.join();
  CHECK(b.stale().empty());
}

TEST_CASE("apply_baseline: the full verdict table", "[reports][baseline]") {
  const BaselineEntry entry{"x", "", "known", ""};
  using V = Verdict;
  struct Row {
    V raw;
    V plain_with_entry;
    V strict_with_entry;
  };
  const Row table[] = {
      {V::Pass, V::XPass, V::XPass},  {V::Fail, V::XFail, V::XFail},  {V::Warn, V::Warn, V::XFail},
      {V::Skip, V::Skip, V::Skip},    {V::XFail, V::XFail, V::XFail}, {V::XPass, V::XPass, V::XPass},
      {V::Error, V::XFail, V::XFail},
  };
  for (const auto& row : table) {
    INFO(verdict_name(row.raw));
    CHECK(apply_baseline(row.raw, false, nullptr) == row.raw);
    CHECK(apply_baseline(row.raw, true, nullptr) == row.raw);
    CHECK(apply_baseline(row.raw, false, &entry) == row.plain_with_entry);
    CHECK(apply_baseline(row.raw, true, &entry) == row.strict_with_entry);
  }
}

TEST_CASE("apply_baseline on a result sets the reason and keeps an error's text", "[reports][baseline]") {
  const Baseline b = from(R"({"id": "mcp/*", "reason": "known gap"})");
  auto results = sample_results();
  for (auto& r : results) apply_baseline(r, false, b);
  CHECK(results[0].verdict == Verdict::XPass);
  CHECK(results[0].reason == "known gap");
  CHECK(results[1].verdict == Verdict::XFail);
  CHECK(results[1].reason == "known gap");
  CHECK(results[2].verdict == Verdict::Warn);  // not strict: stays a warning
  CHECK(results[2].reason.empty());
  CHECK(results[3].verdict == Verdict::Skip);
  CHECK(results[3].reason == "capability 'resources' not declared by the server");
  CHECK(results[6].verdict == Verdict::XFail);
  CHECK(results[6].reason == "known gap (harness error: could not spawn the target: <no such file> & \"quotes\")");
  CHECK(b.stale().empty());

  ScenarioResult outside;
  outside.id = "other/x";
  outside.verdict = Verdict::Fail;
  apply_baseline(outside, true, b);
  CHECK(outside.verdict == Verdict::Fail);
}

TEST_CASE("make_baseline records a run's failures and loads back", "[reports][baseline]") {
  const json doc = make_baseline(sample_results(), "2025-01-02");
  CHECK(doc["format"] == "mcpspec-baseline");
  CHECK(doc["version"] == 1);
  const json& list = doc["expected_failures"];
  std::vector<std::string> ids;
  for (const auto& e : list) ids.push_back(e["id"]);
  // FAIL, WARN, XFAIL and ERROR, sorted; PASS, SKIP and XPASS (it passes now) are left out.
  CHECK(ids == std::vector<std::string>{"mcp/lifecycle/shutdown-stdin", "mcp/prompts/get-missing",
                                        "mcp/tools/call-unknown-tool", "mcp/tools/list-pagination"});
  CHECK(list[0]["protocol"] == "2025-11-25");
  CHECK(list[0]["reason"] == "recorded 2025-01-02: could not spawn the target: <no such file> & \"quotes\"");
  CHECK(list[1]["reason"] == "legacy dialect answers -32601");  // an existing expectation keeps its reason
  CHECK_THAT(list[2]["reason"].get<std::string>(),
             Catch::StartsWith("recorded 2025-01-02: unknown tool answered with a result instead of an error"));
  CHECK(list[3]["reason"] == "recorded 2025-01-02: nextCursor is an empty string");
  CHECK_NOTHROW(doc.dump());  // hostile bytes were repaired

  const Baseline b = Baseline::from_json(doc, "generated");
  auto results = sample_results();
  for (auto& r : results) apply_baseline(r, true, b);
  for (const auto& r : results) CHECK(r.verdict != Verdict::Fail);
  CHECK(results[2].verdict == Verdict::XFail);  // the warning, under strict
  CHECK(b.stale().empty());

  const json today = make_baseline(sample_results());
  CHECK_THAT(today["expected_failures"][0]["reason"].get<std::string>(), Catch::Matches("recorded \\d{4}-\\d{2}-\\d{2}: .*"));
}

namespace {

ScenarioResult failing_with(std::vector<std::pair<std::string, Level>> findings) {
  ScenarioResult r;
  r.id = "mcp/tools/call";
  r.protocol = "2025-11-25";
  for (auto& [req, level] : findings) r.findings.push_back({{req}, level, "broke " + req, 0, "", "", ""});
  r.verdict = verdict_from(r.findings);
  return r;
}

}  // namespace

TEST_CASE("baseline: a SCENARIO#REQ entry excuses only that requirement's findings", "[results][baseline]") {
  auto b = from(R"({"id": "mcp/tools/call#TOOL-05", "reason": "known: wrong error code"})");
  REQUIRE(b.entries().size() == 1);
  CHECK(b.entries()[0].id == "mcp/tools/call");
  CHECK(b.entries()[0].requirement == "TOOL-05");

  SECTION("only the known deviation: XFAIL with the entry's reason") {
    auto r = failing_with({{"TOOL-05", Level::Must}});
    apply_baseline(r, false, b);
    CHECK(r.verdict == Verdict::XFail);
    CHECK(r.reason == "TOOL-05: known: wrong error code");
  }
  SECTION("a second, unexpected MUST finding still fails the scenario") {
    auto r = failing_with({{"TOOL-05", Level::Must}, {"BASE-06", Level::Must}});
    apply_baseline(r, false, b);
    CHECK(r.verdict == Verdict::Fail);
    CHECK_THAT(r.reason, Catch::Contains("not expected by the baseline"));
  }
  SECTION("an unexpected SHOULD next to the known MUST leaves a WARN") {
    auto r = failing_with({{"TOOL-05", Level::Must}, {"PROG-03", Level::Should}});
    apply_baseline(r, false, b);
    CHECK(r.verdict == Verdict::Warn);
  }
  SECTION("the deviation fixed: XPASS, so the baseline gets updated") {
    auto r = failing_with({});
    apply_baseline(r, false, b);
    CHECK(r.verdict == Verdict::XPass);
    CHECK_THAT(r.reason, Catch::Contains("TOOL-05"));
  }
  SECTION("a known SHOULD deviation stays WARN unless strict") {
    auto r = failing_with({{"TOOL-05", Level::Should}});
    apply_baseline(r, false, b);
    CHECK(r.verdict == Verdict::Warn);
    auto s = failing_with({{"TOOL-05", Level::Should}});
    apply_baseline(s, true, b);
    CHECK(s.verdict == Verdict::XFail);
  }
  SECTION("an ERROR is never excused by a requirement entry") {
    auto r = failing_with({});
    r.verdict = Verdict::Error;
    r.reason = "scenario error";
    apply_baseline(r, false, b);
    CHECK(r.verdict == Verdict::Error);
  }
  CHECK(b.stale().empty());
}

TEST_CASE("baseline: whole-scenario and requirement entries live side by side", "[results][baseline]") {
  auto b = from(R"({"id": "mcp/tools/*#TOOL-05", "reason": "glob"},
                   {"id": "mcp/tools/call#TOOL-05", "reason": "exact"},
                   {"id": "mcp/prompts/get", "reason": "whole"})");
  auto r = failing_with({{"TOOL-05", Level::Must}});
  apply_baseline(r, false, b);
  CHECK(r.reason == "TOOL-05: exact");  // the more specific entry wins
  ScenarioResult p = failing_with({{"PROMPT-01", Level::Must}});
  p.id = "mcp/prompts/get";
  apply_baseline(p, false, b);
  CHECK(p.verdict == Verdict::XFail);
  CHECK(p.reason == "whole");
  CHECK(b.stale() == std::vector<std::string>{"mcp/tools/*#TOOL-05 [any protocol]"});
}

TEST_CASE("baseline: malformed requirement entries are refused with their pointer", "[results][baseline]") {
  TempDir dir;
  for (const char* bad : {R"({"id": "#TOOL-05", "reason": "x"})", R"({"id": "mcp/x#", "reason": "x"})",
                          R"({"id": "mcp/x#TOOL-*", "reason": "x"})", R"({"id": "mcp/x#A#B", "reason": "x"})"}) {
    CAPTURE(bad);
    CHECK_THAT(load_error(dir, doc_with(bad)),
               Catch::Contains("/expected_failures/0/id") && Catch::Contains("SCENARIO#REQ-ID"));
  }
  CHECK_THAT(load_error(dir, doc_with(R"({"id": "a#R-1", "reason": "x"}, {"id": "a#R-1", "reason": "y"})")),
             Catch::Contains("duplicate of /expected_failures/0"));
}
