// `mcpspec scenario from-trace`: which recorded values become captures or type matchers, and which
// steps each side of a trace becomes. The end-to-end proof (record through the proxy, replay,
// pass against the same target, fail against a changed one) is tests/proxy/from_trace.py.
#include "harness/proxy/replay_values.hpp"
#include "harness/proxy/trace_to_scenario.hpp"
#include "harness/scenario/loader.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using nlohmann::json;
using namespace mcpspec::proxy;

namespace {

TraceEntry c2s(const std::string& text, double t = 0) { return {t, Direction::ClientToServer, text, nullptr}; }
TraceEntry s2c(const std::string& text, double t = 0) { return {t, Direction::ServerToClient, text, nullptr}; }

const std::string kInit =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"9.1"}}})";
const std::string kInitResult =
    R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"notes","version":"1.4.2"}}})";
const std::string kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

// The scenario must load with the loader `mcpspec run` uses.
void require_loads(const json& scenario) {
  auto out = mcpspec::scenario::load_scenario_text(scenario.dump(), "<test>");
  INFO(scenario.dump(2));
  for (const auto& e : out.errors) INFO(e.text());
  REQUIRE(out.errors.empty());
}

}  // namespace

TEST_CASE("replay values: what counts as volatile", "[proxy][from-trace]") {
  CHECK(is_volatile_value("nextCursor", "2"));
  CHECK(is_volatile_value("progressToken", 7));
  CHECK(is_volatile_value("id", "3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b"));
  CHECK(is_volatile_value("text", "2026-11-27T10:21:08Z"));
  CHECK(is_volatile_value("etag", "b13d887ec4852b8b"));
  CHECK(is_volatile_value("ref", "note_20261127_x7f3k9"));
  CHECK(is_volatile_value("createdAt", 1764238868));
  CHECK(is_volatile_value("elapsedMs", 12.5));
  CHECK_FALSE(is_volatile_value("text", "hello world, 12 times over"));  // words, spaces
  CHECK_FALSE(is_volatile_value("uri", "test://static/resource/12"));     // a URI names a thing
  CHECK_FALSE(is_volatile_value("protocolVersion", "2025-06-18"));
  CHECK_FALSE(is_volatile_value("count", 3));
  CHECK_FALSE(is_volatile_value("name", "echo"));
}

TEST_CASE("replay values: a volatile value is captured only when the replay sends it again", "[proxy][from-trace]") {
  ReplayValues v;
  v.note_sent(3, json{{"cursor", "pg2-b13d887ec4852b8b"}});
  json page = {{"items", json::array({1, 2})}, {"nextCursor", "pg2-b13d887ec4852b8b"}, {"stamp", "2026-11-27T10:00:00Z"}};
  json m = v.matcher(2, page);
  CHECK(m["items"] == json::array({1, 2}));
  CHECK(m["nextCursor"] == json{{"$capture", "nextCursor_1"}});
  CHECK(m["stamp"] == json{{"$type", "string"}});
  // The next request sends the captured value, by name.
  CHECK(v.message(json{{"cursor", "pg2-b13d887ec4852b8b"}}) == json{{"cursor", "${nextCursor_1}"}});
  // A value the replayed side sent first is an echo: matched exactly.
  ReplayValues echo;
  echo.note_sent(1, json{{"progressToken", "tok-77-abcdef12"}});
  CHECK(echo.matcher(2, json{{"progressToken", "tok-77-abcdef12"}})["progressToken"] == "tok-77-abcdef12");
}

TEST_CASE("replay values: numbers are substituted only under id members", "[proxy][from-trace]") {
  ReplayValues v;
  v.note_sent(5, json{{"requestId", 4}, {"count", 4}});
  CHECK(v.matcher(4, json{{"taskId", 4}})["taskId"] == json{{"$capture", "taskId_1"}});
  json sent = v.message(json{{"requestId", 4}, {"count", 4}});
  CHECK(sent["requestId"] == "${taskId_1}");
  CHECK(sent["count"] == 4);
}

TEST_CASE("replay values: literal text that would read as syntax is escaped", "[proxy][from-trace]") {
  ReplayValues v;
  CHECK(v.matcher(0, json{{"text", "cost: ${price}"}})["text"] == "cost: $${price}");
  CHECK(v.message(json{{"text", "cost: ${price}"}})["text"] == "cost: $${price}");
  // An object whose keys all start with '$' would be an operator; it is matched as a value.
  json schema = {{"$ref", "#/definitions/a"}};
  CHECK(v.matcher(0, json{{"inputSchema", schema}})["inputSchema"] == json{{"$eq", schema}});
  // _meta is the implementation's business.
  CHECK_FALSE(v.matcher(0, json{{"_meta", {{"a", 1}}}, {"x", 1}}).contains("_meta"));
  CHECK(v.matcher(0, json{{"_meta", {{"a", 1}, {"progressToken", 5}}}})["_meta"] == json{{"progressToken", {{"$type", "integer"}}}});
}

TEST_CASE("from-trace, server role: requests, answers, captures and the identity version", "[proxy][from-trace]") {
  std::vector<TraceEntry> t = {
      c2s(kInit), s2c(kInitResult), c2s(kInitialized),
      c2s(R"({"jsonrpc":"2.0","id":2,"method":"resources/list"})", 10),
      s2c(R"({"jsonrpc":"2.0","id":2,"result":{"resources":[{"uri":"n://1","name":"a"}],"nextCursor":"c-91f0a2b3c4d5e6f7"}})", 12),
      c2s(R"({"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":"c-91f0a2b3c4d5e6f7"}})", 20),
      s2c(R"({"jsonrpc":"2.0","id":3,"result":{"resources":[]}})", 2500),
      {2501, Direction::Stderr, "notes: bye", nullptr}};
  auto r = scenario_from_trace(t, {mcpspec::scenario::Role::Server, "", "notes.jsonl"});
  const json& s = r.scenario;
  require_loads(s);
  CHECK(s["id"] == "trace/replay/notes");
  CHECK(s["role"] == "server");
  CHECK(s["fixture"] == "none");
  const json& steps = s["steps"];
  REQUIRE(steps.size() == 4);
  CHECK(steps[0]["request"]["method"] == "initialize");
  CHECK(steps[0]["request"]["id"] == 1);
  CHECK(steps[0]["expect"]["result"]["serverInfo"]["version"] == json{{"$type", "string"}});
  CHECK(steps[0]["expect"]["result"]["serverInfo"]["name"] == "notes");
  CHECK(steps[1] == json{{"notify", {{"method", "notifications/initialized"}}}, {"note", "trace line 3"}});
  CHECK(steps[2]["expect"]["result"]["nextCursor"] == json{{"$capture", "nextCursor_1"}});
  CHECK(steps[3]["request"]["params"]["cursor"] == "${nextCursor_1}");
  CHECK(steps[3]["within_ms"] == 8440);  // the recorded answer took 2480 ms: 3x + 1 s
  CHECK(steps[3]["expect"]["result"]["resources"] == json::array());
}

TEST_CASE("from-trace, server role: an answer after other client messages becomes send + expect", "[proxy][from-trace]") {
  std::vector<TraceEntry> t = {
      c2s(kInit), s2c(kInitResult), c2s(kInitialized),
      c2s(R"({"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"wait","arguments":{}}})"),
      c2s(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}})"),
      s2c(R"({"jsonrpc":"2.0","id":"slow","error":{"code":-32800,"message":"cancelled"}})"),
      c2s(R"({"jsonrpc":"2.0","id":9,"method":"ping"})")};
  auto r = scenario_from_trace(t, {mcpspec::scenario::Role::Server, "x/replay/cancel", "t.jsonl"});
  require_loads(r.scenario);
  const json& steps = r.scenario["steps"];
  REQUIRE(steps.size() == 6);
  CHECK(steps[2]["send"]["id"] == "slow");
  CHECK(steps[3]["notify"]["params"]["requestId"] == "slow");
  CHECK(steps[4]["expect"] == json{{"id", "slow"}, {"error", {{"code", -32800}}}});
  CHECK(steps[5]["send"]["method"] == "ping");  // no answer in the trace: sent, nothing expected
  CHECK(r.notes.size() == 1);  // the ping got no answer in the trace
}

TEST_CASE("from-trace, server role: the recorded client's answers to server requests become answers", "[proxy][from-trace]") {
  std::vector<TraceEntry> t = {
      c2s(kInit), s2c(kInitResult), c2s(kInitialized),
      c2s(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{}}})"),
      s2c(R"({"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}})"),
      c2s(R"({"jsonrpc":"2.0","id":0,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}})"),
      s2c(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}})"),
      s2c(R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"model said hi"}]}})")};
  auto r = scenario_from_trace(t, {mcpspec::scenario::Role::Server, "", "a.jsonl"});
  require_loads(r.scenario);
  const json& s = r.scenario;
  CHECK(s["answers"]["sampling/createMessage"][0]["result"]["model"] == "m");
  // The call is a request step (the client sent nothing else before its answer), followed by the
  // server's own request, expected from the inbox; progress is not expected (timing).
  CHECK(s["steps"][2]["request"]["method"] == "tools/call");
  CHECK(s["steps"][2]["expect"]["result"]["content"][0]["text"] == "model said hi");
  CHECK(s["steps"][3]["expect"]["method"] == "sampling/createMessage");
  CHECK(s["steps"].size() == 4);
}

TEST_CASE("from-trace, client role: the harness answers as the recorded server", "[proxy][from-trace]") {
  std::vector<TraceEntry> t = {
      c2s(kInit), s2c(kInitResult), c2s(kInitialized),
      c2s(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a","arguments":{},"_meta":{"progressToken":"p-1b2c3d4e5f60"}}})"),
      s2c(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-1b2c3d4e5f60","progress":1}})"),
      s2c(R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})"),
      s2c(R"({"jsonrpc":"2.0","id":"s1","method":"ping"})"), c2s(R"({"jsonrpc":"2.0","id":"s1","result":{}})")};
  auto r = scenario_from_trace(t, {mcpspec::scenario::Role::Client, "", "c.jsonl"});
  require_loads(r.scenario);
  const json& steps = r.scenario["steps"];
  REQUIRE(steps.size() == 7);
  CHECK(steps[0]["expect"]["method"] == "initialize");
  CHECK(steps[0]["expect"]["params"]["clientInfo"]["version"] == json{{"$type", "string"}});
  CHECK(steps[0]["capture"] == json{{"request_1", "/id"}});
  CHECK(steps[1]["reply"]["result"]["serverInfo"]["version"] == "1.4.2");
  CHECK(steps[1]["to"] == "${request_1}");
  CHECK(steps[2]["expect"]["method"] == "notifications/initialized");
  // The client's token is volatile: captured from its request, sent back in the notification.
  CHECK(steps[3]["expect"]["params"]["_meta"] == json{{"progressToken", {{"$capture", "progressToken_1"}}}});
  CHECK(steps[4]["notify"]["params"]["progressToken"] == "${progressToken_1}");
  CHECK(steps[5]["to"] == "${request_2}");
  CHECK(steps[6]["request"]["method"] == "ping");
  CHECK(steps[6]["expect"] == json{{"result", json::object()}});
  CHECK(r.notes.empty());
}

TEST_CASE("from-trace: a trace with nothing to replay is refused", "[proxy][from-trace]") {
  CHECK_THROWS_WITH(scenario_from_trace({{0, Direction::Stderr, "x", nullptr}, s2c("not json")}, {}),
                    Catch::Contains("no JSON message"));
  CHECK_THROWS_WITH(scenario_from_trace({s2c(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}})")}, {}),
                    Catch::Contains("nothing the replay could do"));
}

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("read_trace: mcp-trace-validator's event lines are read as messages", "[proxy][trace]") {
  auto path = write_temp(
      "mcpspec-foreign-trace.jsonl",
      R"({"seq":0,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"method":"ping"}})"
      "\n"
      R"({"seq":1,"direction":"server-to-client","transport":"stdio","kind":"lifecycle","event":"opened"})"
      "\n"
      R"({"seq":2,"direction":"server-to-client","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"result":{}}})"
      "\n");
  auto entries = read_trace(path);
  REQUIRE(entries.size() == 2);  // the lifecycle event carries no message
  CHECK(entries[0].dir == Direction::ClientToServer);
  CHECK(json::parse(entries[0].text)["method"] == "ping");
  CHECK(entries[1].dir == Direction::ServerToClient);
  CHECK(json::parse(entries[1].text)["result"] == json::object());
  std::filesystem::remove(path);
}

TEST_CASE("read_trace: a foreign event line that is wrong is named with its line", "[proxy][trace]") {
  auto path = write_temp("mcpspec-foreign-bad.jsonl",
                         R"({"seq":0,"direction":"client-to-server","kind":"message","payload":{}})"
                         "\n"
                         R"({"seq":1,"direction":"sideways","kind":"message","payload":{}})"
                         "\n");
  CHECK_THROWS_WITH(read_trace(path), Catch::Contains("mcpspec-foreign-bad.jsonl:2") && Catch::Contains("sideways"));
  auto no_payload = write_temp("mcpspec-foreign-nopayload.jsonl",
                               R"({"seq":0,"direction":"client-to-server","kind":"message"})"
                               "\n");
  CHECK_THROWS_WITH(read_trace(no_payload), Catch::Contains(":1") && Catch::Contains("payload"));
  auto deep = write_temp("mcpspec-foreign-deep.jsonl", std::string(100000, '[') + "\n");
  CHECK_THROWS_WITH(read_trace(deep), Catch::Contains("not a JSON object"));
  for (const auto& p : {path, no_payload, deep}) std::filesystem::remove(p);
}
