// Scenario steps end to end against mcpspec-testserver: captures and ${} substitution between
// steps, expect_unordered, expect_silence_ms, collect + check, foreach with the callable filter,
// a private workdir with run/file steps, and restart after kill.
#include "tests/core/core_support.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

using namespace mcpspec;
using mcpspec::coretest::describe;
using mcpspec::coretest::fake_target;
using mcpspec::coretest::has_requirement;
using mcpspec::coretest::run_text;
using mcpspec::coretest::ScenarioDir;
using mcpspec::coretest::testserver_path;
using nlohmann::json;

namespace {

std::string scenario_doc(const std::string& steps_json, const std::string& extra_json = "{}") {
  return coretest::scenario_json("core/steps/case", "TOOL-01", steps_json, extra_json).dump(2);
}

bool wire_has(const ScenarioResult& r, const std::string& part) {
  for (const auto& w : r.wire)
    if (w.text.find(part) != std::string::npos) return true;
  return false;
}

int count_wire(const ScenarioResult& r, const std::string& prefix) {
  int n = 0;
  for (const auto& w : r.wire)
    if (w.text.rfind(prefix, 0) == 0) ++n;
  return n;
}

}  // namespace

TEST_CASE("steps: captures and ${} substitution flow between steps", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([
    {"request": {"method": "tools/list"}, "capture": {"first_tool": "/result/tools/0/name", "all": "/result/tools"}},
    {"check": "${all.0.name}", "matches": "${first_tool}"},
    {"request": {"method": "tools/call", "params": {"name": "echo", "arguments": {"text": "v=${negotiated}, p=${protocol}"}}},
     "expect": {"result": {"content": [{"type": "text", "text": {"$capture": "echoed"}}]}}},
    {"check": "${echoed}", "matches": "v=2025-06-18, p=2025-06-18"},
    {"check": "${init}", "matches": {"serverInfo": {"name": {"$type": "string"}}, "protocolVersion": "2025-06-18"}},
    {"check": "${server_capabilities.tools}", "matches": {"$type": "object"}},
    {"check": "${all}", "matches": {"$type": "array", "$len": {"$gte": 2}}},
    {"check": "$${literal}", "matches": {"$eq": "$${literal}"}}
  ])"),
                    testserver_path());
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
}

TEST_CASE("steps: a capture that finds nothing fails its step", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}, "capture": {"x": "/result/nothing/here"}}])"),
                    testserver_path());
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Fail);
  REQUIRE(r.findings.size() == 1);
  CHECK_THAT(r.findings[0].message, Catch::Contains("capture \"x\": the message has nothing at /result/nothing/here"));
}

TEST_CASE("steps: a check that does not hold fails with a diff", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}, "capture": {"res": "/result"}},
                                 {"check": "${res}", "matches": {"$exact": {"unexpected": 1}}, "note": "why it should"}])"),
                    testserver_path());
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].step == 1);
  CHECK_THAT(r.findings[0].message, Catch::Contains("(why it should)"));
  CHECK_FALSE(r.findings[0].diff.empty());
}

TEST_CASE("steps: expect_unordered takes messages in any order", "[core][steps]") {
  SECTION("both arrive") {
    auto r = run_text(scenario_doc(R"([
      {"send": {"jsonrpc": "2.0", "id": 101, "method": "ping"}},
      {"send": {"jsonrpc": "2.0", "id": 102, "method": "tools/list"}},
      {"expect_unordered": [{"id": 102, "result": {"tools": {"$type": "array"}}}, {"id": 101, "result": {}}],
       "capture": {"which": "/id"}}
    ])"),
                      testserver_path());
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
  }
  SECTION("one never arrives: FAIL naming what is missing") {
    auto r = run_text(scenario_doc(R"([
      {"send": {"jsonrpc": "2.0", "id": 101, "method": "ping"}},
      {"expect_unordered": [{"id": 101, "result": {}}, {"id": 999}], "within_ms": 1000}
    ])"),
                      testserver_path());
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    REQUIRE(r.findings.size() == 1);
    CHECK_THAT(r.findings[0].message, Catch::Contains("1 expected message(s) did not arrive"));
    CHECK_THAT(r.findings[0].expected, Catch::Contains("999"));
  }
}

TEST_CASE("steps: expect_silence_ms", "[core][steps]") {
  SECTION("nothing arrives: pass") {
    auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}}, {"expect_silence_ms": 300}])"),
                      fake_target("fake_server.sh"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
  }
  SECTION("a response after the last send fails it") {
    // The fake answers the ping and then sends a notification; waiting for the notification
    // guarantees the response has been read before the silence is judged.
    auto r = run_text(scenario_doc(R"([
      {"send": {"jsonrpc": "2.0", "id": 55, "method": "ping"}},
      {"expect": {"method": "notifications/tools/list_changed"}},
      {"expect_silence_ms": 100}
    ])",
                               R"({"env": {"FAKE_MODE": "answer-then-notify"}})"),
                      fake_target("fake_server.sh"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].step == 2);
    CHECK_THAT(r.findings[0].message, Catch::Contains("expected silence"));
    CHECK_THAT(r.findings[0].received, Catch::Contains("\"id\":55"));
  }
  SECTION("notifications are allowed by default") {
    // The notification follows the response the expect step took; whether or not it has been
    // read when the silence starts, it is a notification and so allowed.
    auto r = run_text(scenario_doc(R"([
      {"send": {"jsonrpc": "2.0", "id": 55, "method": "ping"}},
      {"expect": {"id": 55}},
      {"expect_silence_ms": 100}
    ])",
                               R"({"env": {"FAKE_MODE": "answer-then-notify"}})"),
                      fake_target("fake_server.sh"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
  }
}

TEST_CASE("steps: expect_no", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([
    {"send": {"jsonrpc": "2.0", "id": 56, "method": "ping"}},
    {"expect": {"method": "notifications/tools/list_changed"}},
    {"expect_no": {"id": 56}, "for_ms": 100}
  ])",
                             R"({"env": {"FAKE_MODE": "answer-then-notify"}})"),
                    fake_target("fake_server.sh"));
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Fail);
  REQUIRE(r.findings.size() == 1);
  CHECK_THAT(r.findings[0].message, Catch::Contains("a message arrived that must not"));
}

TEST_CASE("steps: collect and check with $increasing", "[core][steps]") {
  // The server sends every progress notification before its response, so once the request step
  // has its response all of them are in the inbox.
  const char* steps = R"([
    {"request": {"method": "tools/call", "params": {"name": "slow_progress", "arguments": {"steps": 4, "delay_ms": 0},
                                                    "_meta": {"progressToken": "tok-1"}}}},
    {"collect": {"method": "notifications/progress", "params": {"progressToken": "tok-1"}}, "as": "progress"},
    {"check": "${progress}", "matches": {"$len": 4}},
    {"check": "${progress}", "matches": {"$increasing": "/params/progress"}},
    {"collect": {"method": "notifications/progress"}, "as": "again"},
    {"check": "${again}", "matches": []}
  ])";
  SECTION("correct server") {
    auto r = run_text(scenario_doc(steps), testserver_path());
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
  }
  SECTION("decreasing progress: the check and the progress monitor both object") {
    auto r = run_text(scenario_doc(steps), testserver_path() + " --fault decreasing-progress");
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "PROG-03"));
    bool check_failed = false;
    for (const auto& f : r.findings)
      if (f.step == 2 || f.step == 3) check_failed = true;
    CHECK(check_failed);
  }
}

TEST_CASE("steps: collect sees messages that arrived while no step was reading", "[core][steps]") {
  // The target writes a notification, then a marker file; the run step waits for the marker
  // without reading the target's output. So the notification sits unread in the pipe when
  // collect runs, and collect must still take it.
  ScenarioDir dir;
  dir.write("project/.keep", "");
  const std::string command =
      "echo '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}'; : > written; exec cat";
  auto s = coretest::load_one(dir, scenario_doc(R"([
    {"run": ["sh", "-c", "while [ ! -e written ]; do sleep 0.05; done"], "within_ms": 60000},
    {"collect": {"method": "notifications/tools/list_changed"}, "as": "seen"},
    {"check": "${seen}", "matches": {"$len": 1}}
  ])",
                                            R"({"fixture": "none", "workdir": {"from": "project"}})"));
  auto r = scenario::run_scenario(s, coretest::run_config(command));
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
}

TEST_CASE("steps: foreach keeps only callable tools", "[core][steps]") {
  // delete_everything is the one tool not annotated readOnlyHint: true.
  const std::string text = scenario_doc(R"([
    {"list": "tools/list", "as": "tools"},
    {"foreach": "${tools}", "as": "tool", "callable": true, "steps": [
      {"check": "${tool.name}", "matches": {"$not": "delete_everything"}},
      {"request": {"method": "tools/call", "params": {"name": "${tool.name}",
                   "arguments": {"$generate": {"schema": "${tool.inputSchema}", "mode": "minimal"}}}},
       "expect": {"result": {"content": {"$type": "array"}}}}
    ]}
  ])");
  ScenarioDir dir;
  auto s = coretest::load_one(dir, text);
  SECTION("readonly (the default) skips the destructive tool") {
    auto cfg = coretest::run_config(testserver_path());
    CHECK(cfg.call_tools == scenario::CallTools::ReadOnly);
    auto r = scenario::run_scenario(s, cfg);
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
    CHECK(wire_has(r, "foreach tool: 5 of 6 items"));
  }
  SECTION("none calls nothing") {
    auto cfg = coretest::run_config(testserver_path());
    cfg.call_tools = scenario::CallTools::None;
    auto r = scenario::run_scenario(s, cfg);
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
    CHECK(wire_has(r, "foreach tool: 0 of 6 items"));
  }
  SECTION("all reaches the destructive tool (and the check inside notices)") {
    auto cfg = coretest::run_config(testserver_path());
    cfg.call_tools = scenario::CallTools::All;
    auto r = scenario::run_scenario(s, cfg);
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    REQUIRE(r.findings.size() == 1);
    CHECK_THAT(r.findings[0].message, Catch::Contains("tool delete_everything"));
    CHECK(r.findings[0].step == 1);  // reported at the foreach step
  }
}

TEST_CASE("steps: foreach with where and limit", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([
    {"list": "tools/list", "as": "tools"},
    {"foreach": "${tools}", "as": "tool", "where": {"name": {"$in": ["echo", "add", "image"]}}, "limit": 2,
     "steps": [{"check": "${tool.name}", "matches": {"$in": ["echo", "add", "image"]}}]},
    {"check": "${tool}", "matches": "restored?"}
  ])"),
                    testserver_path());
  INFO(describe(r));
  // Two items at most; afterwards the loop variable is gone again, so the last step is a scenario error.
  CHECK(wire_has(r, "foreach tool: 2 of 6 items"));
  CHECK(r.verdict == Verdict::Error);
  CHECK_THAT(r.reason, Catch::Contains("tool"));
}

TEST_CASE("steps: list pages through a paginated method", "[core][steps]") {
  // The test server returns resources two per page.
  auto r = run_text(scenario_doc(R"([
    {"list": "resources/list", "as": "resources"},
    {"check": "${resources}", "matches": {"$len": 5, "$unique": "/uri"}}
  ])"),
                    testserver_path());
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
  int pages = 0;
  for (const auto& w : r.wire)
    if (w.dir == WireEntry::Dir::Out && w.text.find("resources/list") != std::string::npos) ++pages;
  CHECK(pages == 3);  // five resources, two per page
}

TEST_CASE("steps: a private workdir, run and file steps", "[core][steps]") {
  ScenarioDir dir;
  dir.write("project/data.json", R"({"k": 1, "list": [1, 2]})");
  dir.write("project/sub/notes.txt", "hello notes\n");
  // The target records where it runs, then serves MCP.
  const std::string command = "pwd > started-in.txt; exec " + testserver_path();
  auto s = coretest::load_one(dir, scenario_doc(R"([
    {"request": {"method": "ping"}},
    {"file": "data.json", "json": {"k": 1}},
    {"file": "sub/notes.txt", "text": {"$regex": "^hello"}},
    {"file": "missing.txt", "exists": false},
    {"file": "started-in.txt", "text": {"$contains": "${workdir}"}},
    {"run": ["sh", "-c", "echo \"$0\" > made-by-run.txt", "it's quoted"]},
    {"file": "made-by-run.txt", "text": "it's quoted\n"},
    {"run": ["sh", "-c", "exit 3"], "expect_code": 3},
    {"run": ["sh", "-c", "test \"$CORE_ENV\" = from-scenario"]}
  ])",
                                            R"({"workdir": {"from": "project"}, "env": {"CORE_ENV": "from-scenario"}})"));
  auto r = scenario::run_scenario(s, coretest::run_config(command));
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
  // The copy was private: the source folder is untouched, and the work folder is gone afterwards.
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/project/made-by-run.txt"));
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/project/started-in.txt"));
  std::string workdir;
  for (const auto& w : r.wire) {
    auto at = w.text.find(" (in ");
    if (w.text.rfind("spawned pid", 0) == 0 && at != std::string::npos)
      workdir = w.text.substr(at + 5, w.text.size() - at - 6);
  }
  REQUIRE_FALSE(workdir.empty());
  CHECK_FALSE(std::filesystem::exists(workdir));
}

TEST_CASE("steps: failing file and run steps", "[core][steps]") {
  ScenarioDir dir;
  dir.write("project/data.json", R"({"k": 1})");
  auto run_steps = [&](const std::string& steps) {
    auto s = coretest::load_one(dir, scenario_doc(steps, R"({"workdir": {"from": "project"}, "fixture": "none"})"));
    return scenario::run_scenario(s, coretest::run_config(testserver_path()));
  };
  auto missing = run_steps(R"([{"file": "nope.txt"}])");
  CHECK(missing.verdict == Verdict::Fail);
  REQUIRE(missing.findings.size() == 1);
  CHECK_THAT(missing.findings[0].message, Catch::Contains("nope.txt does not exist"));
  auto present = run_steps(R"([{"file": "data.json", "exists": false}])");
  CHECK(present.verdict == Verdict::Fail);
  auto wrong_json = run_steps(R"([{"file": "data.json", "json": {"k": 2}}])");
  CHECK(wrong_json.verdict == Verdict::Fail);
  auto code = run_steps(R"([{"run": ["sh", "-c", "exit 4"]}])");
  CHECK(code.verdict == Verdict::Fail);
  REQUIRE(code.findings.size() == 1);
  CHECK_THAT(code.findings[0].message, Catch::Contains("exit code 4"));
}

TEST_CASE("steps: restart after kill", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([
    {"request": {"method": "ping"}},
    {"kill": true},
    {"expect_exit": {"code": "SIGKILL"}},
    {"restart": true},
    {"request": {"method": "tools/list"}, "expect": {"result": {"tools": {"$type": "array"}}}},
    {"check": "${negotiated}", "matches": "2025-06-18"}
  ])"),
                    testserver_path());
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
  CHECK_FALSE(has_requirement(r, "MCPSPEC-ALIVE"));
  CHECK(count_wire(r, "spawned pid") == 2);
  // The fixture ran again after the restart: two initialize requests went out.
  int inits = 0;
  for (const auto& w : r.wire)
    if (w.dir == WireEntry::Dir::Out && w.text.find("\"method\":\"initialize\"") != std::string::npos) ++inits;
  CHECK(inits == 2);
}

TEST_CASE("steps: close_stdin and expect_exit with the exit code", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}}, {"close_stdin": true}, {"expect_exit": {"code": 0}}])"),
                    testserver_path());
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
  auto wrong = run_text(scenario_doc(R"([{"close_stdin": true}, {"expect_exit": {"code": 5}}])"), testserver_path());
  INFO(describe(wrong));
  CHECK(wrong.verdict == Verdict::Fail);
  REQUIRE(wrong.findings.size() == 1);
  CHECK_THAT(wrong.findings[0].message, Catch::Contains("exit status"));
}

TEST_CASE("steps: signal TERM ends the target without an alive finding", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}}, {"signal": "TERM"}, {"expect_exit": {"code": "SIGTERM"}}])"),
                    testserver_path());
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
}

TEST_CASE("steps: a step whose if-condition does not hold is skipped", "[core][steps]") {
  auto r = run_text(scenario_doc(R"([
    {"request": {"method": "ping"}, "expect": {"result": {"never": true}}, "if": {"protocol": "<2025-03-26"}},
    {"request": {"method": "ping"}, "expect": {"result": {"never": true}}, "if": {"server_capabilities": ["nonexistent"]}},
    {"request": {"method": "ping"}, "if": {"protocol": ">=2025-06-18", "server_capabilities": ["tools"]}}
  ])"),
                    testserver_path());
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
  CHECK(wire_has(r, "step 0 skipped"));
  CHECK(wire_has(r, "step 1 skipped"));
}

TEST_CASE("steps: skip_unless_retried skips only a scenario whose target asked for nothing and showed nothing",
          "[core][steps]") {
  const std::string modern = "2026-07-28", no_fixture = R"({"fixture": "none"})";
  auto call = [](const std::string& tool, const std::string& args) {
    return R"({"request": {"method": "tools/call", "params": {"name": ")" + tool + R"(", "arguments": )" + args +
           R"(, "_meta": {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}}}},
              {"retry": {"answer_all": {"action": "decline"}}},
              {"skip_unless_retried": "nothing asked"})";
  };
  // confirm asks for input: the round is answered, the scenario is judged.
  auto asked = run_text(scenario_doc("[" + call("confirm", R"({"target": "x"})") + "]", no_fixture), testserver_path(), modern);
  INFO(describe(asked));
  CHECK(asked.verdict == Verdict::Pass);
  // echo asks for nothing: SKIP with the step's reason, not a PASS by default.
  auto plain = run_text(scenario_doc("[" + call("echo", R"({"text": "x"})") + "]", no_fixture), testserver_path(), modern);
  INFO(describe(plain));
  CHECK(plain.verdict == Verdict::Skip);
  CHECK(plain.reason == "nothing asked");
  // A finding made before the step stands (cache-hint-invalid: the monitor flags tools/list).
  auto found = run_text(scenario_doc(R"([{"request": {"method": "tools/list"}},)" + call("echo", R"({"text": "x"})") + "]",
                                     no_fixture),
                        testserver_path() + " --fault cache-hint-invalid", modern);
  INFO(describe(found));
  CHECK(found.verdict == Verdict::Fail);
  CHECK(has_requirement(found, "CACHE-02"));
}
