// The runner end to end against shell fakes and mcpspec-testserver: PASS for a correct exchange,
// FAIL carrying the monitor's requirement id for each kind of wire fault, SKIP and ERROR with their
// reasons. Every fault is followed by a later exchange that the target answers after the fault,
// so the fault has certainly been read when the scenario ends (no timing assumptions).
#include "tests/core/core_support.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace mcpspec;
using mcpspec::coretest::describe;
using mcpspec::coretest::fake_target;
using mcpspec::coretest::has_requirement;
using mcpspec::coretest::run_text;
using mcpspec::coretest::testserver_path;
using nlohmann::json;

namespace {

// A scenario (default fixture: the handshake) with the given steps and extra top-level keys.
std::string scenario_doc(const std::string& steps_json, const std::string& extra_json = "{}") {
  return coretest::scenario_json("core/runner/case", "PING-01", steps_json, extra_json).dump(2);
}

std::string fake(const std::string& mode) { return "FAKE_MODE=" + mode + " " + fake_target("fake_server.sh"); }

const char* kTwoPings = R"([{"request": {"method": "ping"}, "expect": {"result": {}}},
                            {"request": {"method": "ping"}, "expect": {"result": {}}}])";

}  // namespace

TEST_CASE("runner: a correct exchange passes", "[core][runner]") {
  SECTION("shell fake") {
    auto r = run_text(scenario_doc(kTwoPings), fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
    CHECK(r.findings.empty());
    CHECK(r.negotiated == "2025-06-18");
    CHECK(r.protocol == "2025-06-18");
    CHECK(r.transport == "stdio");
    CHECK(r.reason.empty());
  }
  SECTION("mcpspec-testserver, every protocol version") {
    for (const char* v : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
      auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}, "expect": {"result": {"$exact": {}}}},
                                     {"request": {"method": "tools/list"}, "expect": {"result": {"tools": {"$len": {"$gte": 1}}}}}])"),
                        testserver_path(), v);
      INFO(v << "\n" << describe(r));
      CHECK(r.verdict == Verdict::Pass);
      CHECK(r.negotiated == v);
    }
  }
}

TEST_CASE("runner: the wire log records both directions and the start", "[core][runner]") {
  auto r = run_text(scenario_doc(kTwoPings), fake("ok"));
  REQUIRE(r.verdict == Verdict::Pass);
  int out = 0, in = 0;
  for (const auto& w : r.wire) {
    if (w.dir == WireEntry::Dir::Out) ++out;
    if (w.dir == WireEntry::Dir::In) ++in;
  }
  CHECK(out == 4);  // initialize, initialized, ping, ping
  CHECK(in == 3);
  REQUIRE_FALSE(r.wire.empty());
  CHECK_THAT(r.wire.front().text, Catch::StartsWith("spawned pid"));
}

TEST_CASE("runner: a non-JSON stdout line fails with STDIO-03", "[core][runner][monitor]") {
  SECTION("shell fake") {
    auto r = run_text(scenario_doc(kTwoPings), fake("garbage"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "STDIO-03"));
  }
  SECTION("testserver --fault garbage-stdout") {
    auto r = run_text(scenario_doc(kTwoPings), testserver_path() + " --fault garbage-stdout");
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "STDIO-03"));
  }
  SECTION("switched off for the scenario") {
    auto r = run_text(scenario_doc(kTwoPings, R"({"monitors": {"framing": false}})"), fake("garbage"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
  }
}

TEST_CASE("runner: a response to an unknown id fails with BASE-06", "[core][runner][monitor]") {
  SECTION("shell fake") {
    auto r = run_text(scenario_doc(kTwoPings), fake("unknown-id"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "BASE-06"));
    bool names_id = false;
    for (const auto& f : r.findings)
      if (f.message.find("4242") != std::string::npos) names_id = true;
    CHECK(names_id);
  }
  SECTION("testserver --fault wrong-id") {
    // tools/list is answered with a wrong id; the ping after it is answered correctly.
    auto r = run_text(scenario_doc(R"([{"send": {"jsonrpc": "2.0", "id": 90, "method": "tools/list"}},
                                   {"request": {"method": "ping"}}])"),
                      testserver_path() + " --fault wrong-id");
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "BASE-06"));
  }
}

TEST_CASE("runner: a second response to one request fails with MCPSPEC-RESPONSE", "[core][runner][monitor]") {
  SECTION("shell fake") {
    auto r = run_text(scenario_doc(kTwoPings), fake("duplicate"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "MCPSPEC-RESPONSE"));
  }
  SECTION("testserver --fault duplicate-response") {
    auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}}, {"request": {"method": "tools/list"}}])"),
                      testserver_path() + " --fault duplicate-response");
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "MCPSPEC-RESPONSE"));
  }
}

TEST_CASE("runner: result and error in one response fails with BASE-11", "[core][runner][monitor]") {
  auto r = run_text(scenario_doc(kTwoPings), fake("result-and-error"));
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Fail);
  CHECK(has_requirement(r, "BASE-11"));
}

TEST_CASE("runner: a target that exits mid-scenario fails with MCPSPEC-ALIVE", "[core][runner][monitor]") {
  auto r = run_text(scenario_doc(kTwoPings), fake("exit"));
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Fail);
  CHECK(has_requirement(r, "MCPSPEC-ALIVE"));
  // The step that waited says what happened to the target.
  bool explained = false;
  for (const auto& f : r.findings)
    if (f.step == 0 && (f.message.find("the target ended (exit code 0)") != std::string::npos ||
                        f.message.find("the target closed its output") != std::string::npos))
      explained = true;
  CHECK(explained);
}

TEST_CASE("runner: a target that never answers fails at the step's deadline", "[core][runner]") {
  auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}, "within_ms": 1000}])"), fake("silent"));
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].step == 0);
  CHECK_THAT(r.findings[0].message, Catch::Contains("no response to ping"));
  CHECK_THAT(r.findings[0].message, Catch::Contains("within 1000 ms"));
  CHECK(r.findings[0].requirements == std::vector<std::string>{"PING-01"});
  CHECK_FALSE(has_requirement(r, "MCPSPEC-ALIVE"));  // it is alive, just silent
}

TEST_CASE("runner: the scenario-wide bound ends a scenario of endless waits", "[core][runner]") {
  // Each wait alone is long (the run's default step wait); the scenario bound (scenario_timeout_ms)
  // cuts the whole run short.
  coretest::ScenarioDir dir;
  auto s = coretest::load_one(dir, scenario_doc(R"([{"expect": {"method": "never/sent"}},
                                                {"expect": {"method": "never/sent"}}])",
                                            R"({"fixture": "none"})"));
  auto cfg = coretest::run_config(fake("silent"));
  cfg.timeout_ms = 600000;
  cfg.scenario_timeout_ms = 1500;
  auto r = scenario::run_scenario(s, cfg);
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].step == 0);
  CHECK_THAT(r.findings[0].message, Catch::Contains("did not arrive"));
}

TEST_CASE("runner: the scenario bound grows to ten times the longest wait a step allows", "[core][runner]") {
  // Ten tool calls of up to 30 s each need more than a 120 s bound; a step's within_ms (or the
  // scenario's timeout_ms) says so. Here 100 ms would end the scenario before its second window.
  coretest::ScenarioDir dir;
  auto s = coretest::load_one(dir, scenario_doc(R"([{"run": ["true"], "within_ms": 150},
                                                {"expect_silence_ms": 150}, {"expect_silence_ms": 150}])",
                                            R"({"fixture": "none"})"));
  auto cfg = coretest::run_config(fake("silent"));
  cfg.scenario_timeout_ms = 100;
  auto r = scenario::run_scenario(s, cfg);
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Pass);
}

TEST_CASE("runner: a target that cannot start is an ERROR or a FAIL, never a crash", "[core][runner]") {
  auto r = run_text(scenario_doc(kTwoPings), "/nonexistent/mcpspec-core-no-server");
  INFO(describe(r));
  // The command runs (the shell reports "not found" and exits 127): the handshake finds the target gone.
  CHECK(r.verdict == Verdict::Fail);
  CHECK(has_requirement(r, "MCPSPEC-ALIVE"));
  bool stderr_logged = false;
  for (const auto& w : r.wire)
    if (w.dir == WireEntry::Dir::Stderr && w.text.find("mcpspec-core-no-server") != std::string::npos)
      stderr_logged = true;
  CHECK(stderr_logged);
}

TEST_CASE("runner: SKIP when the server lacks a required capability", "[core][runner][skip]") {
  SECTION("shell fake declaring nothing") {
    auto r = run_text(scenario_doc(kTwoPings, R"({"requires": {"server_capabilities": ["tools"]}, "env": {"FAKE_CAPS": "{}"}})"),
                      fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Skip);
    CHECK(r.reason == "the server does not declare the tools capability");
    CHECK(r.findings.empty());
  }
  SECTION("testserver --profile minimal, dotted capability path") {
    auto r = run_text(scenario_doc(kTwoPings, R"({"requires": {"server_capabilities": ["resources.subscribe"]}})"),
                      testserver_path() + " --profile minimal");
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Skip);
    CHECK_THAT(r.reason, Catch::Contains("resources.subscribe"));
  }
  SECTION("declared: runs") {
    auto r = run_text(scenario_doc(kTwoPings, R"({"requires": {"server_capabilities": ["tools"]}})"), fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
  }
  SECTION("a false capability counts as not declared") {
    auto r = run_text(scenario_doc(kTwoPings, R"({"requires": {"server_capabilities": ["tools.listChanged"]},
                                              "env": {"FAKE_CAPS": "{\"tools\":{\"listChanged\":false}}"}})"),
                      fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Skip);
  }
}

TEST_CASE("runner: SKIP for a protocol outside the scenario's range", "[core][runner][skip]") {
  SECTION("the proposed version is outside: the target is not even started") {
    auto r = run_text(scenario_doc(kTwoPings, R"({"protocol": ">=2025-11-25"})"), fake("ok"), "2025-06-18");
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Skip);
    CHECK(r.reason == "applies to protocol >=2025-11-25, this run proposes 2025-06-18");
    CHECK(r.wire.empty());
  }
  SECTION("the negotiated version is outside") {
    auto r = run_text(scenario_doc(kTwoPings, R"({"protocol": ">=2025-03-26", "env": {"FAKE_VERSION": "2024-11-05"}})"),
                      fake("ok"), "2025-06-18");
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Skip);
    CHECK_THAT(r.reason, Catch::Contains("the server negotiated 2024-11-05, outside this scenario's range >=2025-03-26"));
  }
  SECTION("a transport the run does not use") {
    auto r = run_text(scenario_doc(kTwoPings, R"({"requires": {"transports": ["http"]}})"), fake("ok"));
    CHECK(r.verdict == Verdict::Skip);
    CHECK_THAT(r.reason, Catch::Contains("needs transport http"));
  }
}

TEST_CASE("runner: ERROR when the scenario itself sends an invalid message", "[core][runner][error]") {
  SECTION("envelope problem without \"invalid\": true") {
    auto r = run_text(scenario_doc(R"([{"send": {"id": 77, "method": "ping"}}])"), fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Error);
    CHECK_THAT(r.reason, Catch::StartsWith("scenario error: the scenario sends an invalid message"));
    CHECK_THAT(r.reason, Catch::Contains("\"invalid\": true"));
  }
  SECTION("schema problem without \"invalid\": true") {
    auto r = run_text(scenario_doc(R"([{"request": {"method": "tools/call", "params": {"arguments": {}}}}])"), fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Error);
    CHECK_THAT(r.reason, Catch::Contains("not valid 2025-06-18"));
  }
  SECTION("the same message marked invalid is sent, and its answer is not unsolicited") {
    auto r = run_text(scenario_doc(R"([{"send": {"id": 77, "method": "ping"}, "invalid": true},
                                   {"expect": {"id": 77, "result": {}}}])"),
                      fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Pass);
  }
  SECTION("an unknown ${name}") {
    auto r = run_text(scenario_doc(R"([{"request": {"method": "ping", "params": {"x": "${nobody.knows}"}}}])"), fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Error);
    CHECK_THAT(r.reason, Catch::Contains("nobody.knows"));
  }
}

TEST_CASE("runner: a SHOULD scenario's broken expectation is a WARN", "[core][runner]") {
  auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}, "expect": {"result": {"extra": true}}}])",
                             R"({"level": "SHOULD"})"),
                    fake("ok"));
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Warn);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].level == Level::Should);
  CHECK(r.findings[0].step == 0);
  CHECK_FALSE(r.findings[0].diff.empty());
}

TEST_CASE("runner: a failed step ends the scenario", "[core][runner]") {
  auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}, "expect": {"result": {"missing": 1}}},
                                 {"request": {"method": "ping"}, "expect": {"result": {"also": 2}}}])"),
                    fake("ok"));
  INFO(describe(r));
  CHECK(r.verdict == Verdict::Fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].step == 0);
}

// A check mcpspec cannot make (here a schema with patternProperties, which it does not run) is
// neither a PASS nor a FAIL: under "$not" a mismatch would have passed, as a filter of expect_no it
// would have passed too, as an expectation it would have failed a target that may be right.
TEST_CASE("runner: a check mcpspec cannot make is an ERROR, never a PASS or FAIL", "[core][runner][error]") {
  const std::string pp = R"({"patternProperties": {"^a": {"type": "string"}}})";
  struct Case {
    const char* name;
    std::string steps;
    std::string reason;  // how the ERROR's reason starts
  };
  const std::vector<Case> cases = {
      {"check", R"([{"check": {"a": 1}, "matches": {"$conformsTo": )" + pp + "}}]",
       "cannot check the checked value:"},
      {"under $not", R"([{"check": {"a": 1}, "matches": {"$not": {"$conformsTo": )" + pp + "}}}]",
       "cannot check the checked value:"},
      {"an expectation", R"([{"request": {"method": "ping"}, "expect": {"result": {"$conformsTo": )" + pp + "}}}]",
       "cannot check the response to ping:"},
      // The answer to id 5 comes before the answer the request step waits for: it is there to judge.
      {"expect_no", R"([{"send": {"jsonrpc": "2.0", "id": 5, "method": "ping"}},
                        {"request": {"method": "ping"}, "expect": {"result": {}}},
                        {"expect_no": {"id": 5, "result": {"$conformsTo": )" + pp + R"(}}, "for_ms": 1}])",
       "cannot check a message against expect_no:"},
      // Taken at once, not left to time out as a FAIL.
      {"expect_unordered", R"([{"send": {"jsonrpc": "2.0", "id": 5, "method": "ping"}},
                               {"expect_unordered": [{"id": 5, "result": {"$conformsTo": )" + pp + R"(}}],
                                "within_ms": 3000}])",
       "cannot check the message:"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      auto r = run_text(scenario_doc(c.steps), fake("ok"));
      INFO(describe(r));
      CHECK(r.verdict == Verdict::Error);
      CHECK(r.findings.empty());
      CHECK_THAT(r.reason, Catch::StartsWith(c.reason) && Catch::Contains("patternProperties is not supported"));
    }
  }
  SECTION("a mismatch beside it decides") {
    auto r = run_text(scenario_doc(R"([{"check": {"a": 1, "b": 2}, "matches": {"a": {"$conformsTo": )" + pp +
                                   R"(}, "b": 3}}])"),
                      fake("ok"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
  }
  SECTION("a FAIL already found stands") {
    auto r = run_text(scenario_doc(R"([{"request": {"method": "ping"}, "expect": {"result": {}}},
                                     {"request": {"method": "ping"}, "expect": {"result": {}}},
                                     {"check": {"a": 1}, "matches": {"$conformsTo": )" + pp + "}}]"),
                      fake("garbage"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "STDIO-03"));
    CHECK_THAT(r.reason, Catch::Contains("patternProperties"));
  }
}

// A --schema file mcpspec cannot apply to a message (here a "pattern" too costly on the text a tool
// echoes) leaves that message unchecked: the schema monitor made no check, so the scenario is an
// ERROR, neither a PASS nor a FAIL. The same pattern on a short text is applied as usual.
TEST_CASE("runner: a server message the --schema file cannot check is an ERROR", "[core][runner][error][schema]") {
  coretest::TempDir files;
  std::ifstream in(std::string(MCPSPEC_SOURCE_DIR) + "/harness/protocol/schemas/2025-06-18/messages.schema.json");
  json doc = json::parse(in);
  // 30 000 states: about 18 million steps on a 600-character text, past the 2^24 bound of one evaluation.
  doc["definitions"]["TextContent"]["properties"]["text"]["pattern"] = "x{30000}";
  auto registry = protocol::SchemaRegistry::from_file(files.write("schema.json", doc.dump()), "2025-06-18");
  auto echo = [](const std::string& text) {
    return json::array({{{"request", {{"method", "tools/call"}, {"params", {{"name", "echo"}, {"arguments", {{"text", text}}}}}}},
                         {"expect", {{"result", {{"content", {{"$len", 1}}}}}}}}})
        .dump();
  };
  auto run = [&](const std::string& steps) {
    coretest::ScenarioDir dir;
    auto s = coretest::load_one(dir, scenario_doc(steps));
    auto cfg = coretest::run_config(testserver_path());
    cfg.schemas = registry.get();
    return scenario::run_scenario(s, cfg);
  };
  SECTION("a long text: the pattern is too costly to check, ERROR") {
    auto r = run(echo(std::string(600, 'y')));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Error);
    CHECK(r.findings.empty());
    CHECK_THAT(r.reason, Catch::StartsWith("cannot check the server's messages against the schema:") &&
                             Catch::Contains("too costly") && Catch::Contains("600 bytes"));
  }
  SECTION("a short text: checked, and it does not match the pattern, FAIL") {
    auto r = run(echo("hello"));
    INFO(describe(r));
    CHECK(r.verdict == Verdict::Fail);
    CHECK(has_requirement(r, "MCPSPEC-SCHEMA"));
    CHECK(r.reason.find("cannot check") == std::string::npos);
  }
}
