// The fuzzer's oracles, frame by frame: no process involved.
#include "harness/fuzz/tracker.hpp"
#include "harness/protocol/schema_registry.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec;
using namespace mcpspec::fuzz;
using nlohmann::json;

namespace {

const protocol::SchemaRegistry& reg() { return protocol::SchemaRegistry::builtin(); }
const std::string kV = "2025-06-18";

FuzzMessage msg(const json& j) { return describe_message(j, "test", kV, reg()); }

std::vector<std::string> oracles(const Tracker::Result& r) {
  std::vector<std::string> out;
  for (const auto& a : r.anomalies) out.push_back(a.oracle);
  return out;
}

}  // namespace

TEST_CASE("fuzz tracker: a matching answer is fine and measured", "[fuzz_live]") {
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 5}, {"method", "ping"}}), 0, Clock::now());
  CHECK(t.outstanding() == 1);
  auto r = t.on_frame(R"({"jsonrpc":"2.0","id":5,"result":{}})", Clock::now());
  CHECK(r.anomalies.empty());
  CHECK(r.latency_us.has_value());
  CHECK(r.answered == std::optional<std::size_t>(0));
  CHECK(t.outstanding() == 0);
}

TEST_CASE("fuzz tracker: wrong id, duplicate answer, answer to a notification", "[fuzz_live]") {
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/list"}}), 0, Clock::now());
  auto r = t.on_frame(R"({"jsonrpc":"2.0","id":1073741831,"result":{"tools":[]}})", Clock::now());
  REQUIRE(oracles(r) == std::vector<std::string>{"wrong-id"});
  CHECK(r.anomalies[0].method == "?");  // a guess is not a key: the minimizer names the method
  CHECK(r.anomalies[0].detail.find("tools/list") != std::string::npos);  // the request it most likely answered
  CHECK(r.anomalies[0].trigger == std::optional<std::size_t>(0));
  CHECK(t.outstanding() == 0);                     // not reported again as unanswered

  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 8}, {"method", "ping"}}), 1, Clock::now());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":8,"result":{}})", Clock::now()).anomalies.empty());
  auto dup = t.on_frame(R"({"jsonrpc":"2.0","id":8,"result":{}})", Clock::now());
  REQUIRE(oracles(dup) == std::vector<std::string>{"wrong-id"});
  CHECK(dup.anomalies[0].signature == "duplicate answer");

  t.on_sent(msg({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}), 2, Clock::now());
  auto n = t.on_frame(R"({"jsonrpc":"2.0","id":null,"result":{}})", Clock::now());
  CHECK(oracles(n) == std::vector<std::string>{"response-to-notification"});
}

TEST_CASE("fuzz tracker: a null-id error is fair only for something unreadable", "[fuzz_live]") {
  Tracker t(reg(), kV);
  auto bad = describe_message(std::string("{not json"), "test", kV, reg());
  CHECK(bad.demand == Demand::ParseError);
  t.on_sent(bad, 0, Clock::now());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})", Clock::now()).anomalies.empty());
  // A second one has nothing left to answer.
  auto r = t.on_frame(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})", Clock::now());
  CHECK(oracles(r) == std::vector<std::string>{"response-to-notification"});
  // -32603 for a parse error is an internal-error finding.
  t.on_sent(bad, 1, Clock::now());
  auto i = t.on_frame(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"x"}})", Clock::now());
  REQUIRE(oracles(i) == std::vector<std::string>{"internal-error"});
  CHECK(i.anomalies[0].demanded_code == -32700);
}

TEST_CASE("fuzz tracker: unknown methods owe -32601", "[fuzz_live]") {
  Tracker t(reg(), kV);
  auto m = msg({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "mcpspec.fuzz/unknown-1"}});
  CHECK(m.demand == Demand::UnknownMethod);
  t.on_sent(m, 0, Clock::now());
  auto r = t.on_frame(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"boom"}})", Clock::now());
  REQUIRE(oracles(r) == std::vector<std::string>{"internal-error"});
  CHECK(r.anomalies[0].method == "(unknown method)");  // every made-up name is one finding
  auto other = msg({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "mcpspec.fuzz/unknown-2"}});
  t.on_sent(other, 1, Clock::now());
  auto r2 = t.on_frame(R"({"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"boom"}})", Clock::now());
  REQUIRE(r2.anomalies.size() == 1);
  CHECK(r2.anomalies[0].key() == r.anomalies[0].key());
  // Fresh ids: the answer to a reused one is not judged by content.
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 5}, {"method", "mcpspec.fuzz/unknown-1"}}), 1, Clock::now());
  auto w = t.on_frame(R"({"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"no"}})", Clock::now());
  CHECK(oracles(w) == std::vector<std::string>{"wrong-error-code"});
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 6}, {"method", "mcpspec.fuzz/unknown-1"}}), 2, Clock::now());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"no"}})", Clock::now()).anomalies.empty());
}

TEST_CASE("fuzz tracker: schema of the answer by the method it answers, non-JSON output", "[fuzz_live]") {
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "ping"}, {"params", {{"_meta", json::object()}}}}), 0,
            Clock::now());
  auto r = t.on_frame(R"({"jsonrpc":"2.0","id":4,"result":"pong"})", Clock::now());
  REQUIRE(oracles(r) == std::vector<std::string>{"schema"});
  CHECK(r.anomalies[0].method == "ping");
  CHECK(r.anomalies[0].trigger_id == std::optional<json>(json(4)));

  CHECK(oracles(t.on_frame("server ready!", Clock::now())) == std::vector<std::string>{"not-json-rpc"});
  CHECK(oracles(t.on_frame(R"({"id":1})", Clock::now())) == std::vector<std::string>{"not-json-rpc"});
}

TEST_CASE("fuzz tracker: an echoed id MCP does not allow is a schema finding, never a guess", "[fuzz_live]") {
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", "p1"}, {"method", "ping"}}), 0, Clock::now());
  auto odd = msg({{"jsonrpc", "2.0"}, {"id", 1.5}, {"method", "ping"}});
  CHECK(odd.may_get_null_error);
  t.on_sent(odd, 1, Clock::now());
  auto r = t.on_frame(R"({"jsonrpc":"2.0","id":1.5,"result":{}})", Clock::now());
  REQUIRE(oracles(r) == std::vector<std::string>{"schema"});
  CHECK(r.anomalies[0].method == "ping");
  CHECK(t.outstanding() == 1);  // the real ping is still owed its answer, not taken as the culprit
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":"p1","result":{}})", Clock::now()).anomalies.empty());
}

TEST_CASE("fuzz tracker: cancelled requests may go unanswered, a server ping is answered", "[fuzz_live]") {
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "tools/call"}, {"params", {{"name", "slow"}}}}), 0,
            Clock::now());
  CHECK(t.outstanding() == 1);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 9}}}}), 1,
            Clock::now());
  CHECK(t.outstanding() == 0);
  auto r = t.on_frame(R"({"jsonrpc":"2.0","id":"s1","method":"ping"})", Clock::now());
  CHECK(r.anomalies.empty());
  REQUIRE(r.reply.has_value());
  CHECK((*r.reply)["id"] == "s1");
  CHECK((*r.reply)["result"] == json::object());
}

TEST_CASE("fuzz tracker: a wrong id's guessed request still matches its own late answer", "[fuzz_live]") {
  // Pipelined: the oldest request waiting is only a guess for what a wrong id meant. When that
  // request's own answer comes after all, it is an answer, not a second one.
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", "mcpspec-ping-1"}, {"method", "ping"}}), 0, Clock::now());
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", "tools-0"}, {"method", "tools/list"}}), 1, Clock::now());
  auto w = t.on_frame(R"({"jsonrpc":"2.0","id":"tools-0-wrong","result":{"tools":[]}})", Clock::now());
  REQUIRE(oracles(w) == std::vector<std::string>{"wrong-id"});
  CHECK(w.anomalies[0].signature == "unknown id");
  CHECK(w.anomalies[0].trigger == std::optional<std::size_t>(0));  // the guess: the oldest
  CHECK(t.outstanding() == 1);                                      // no longer owed; tools-0 still is
  auto late = t.on_frame(R"({"jsonrpc":"2.0","id":"mcpspec-ping-1","result":{}})", Clock::now());
  CHECK(late.anomalies.empty());
  CHECK(late.answered == std::optional<std::size_t>(0));
  // A real second answer is still one.
  auto dup = t.on_frame(R"({"jsonrpc":"2.0","id":"mcpspec-ping-1","result":{}})", Clock::now());
  REQUIRE(oracles(dup) == std::vector<std::string>{"wrong-id"});
  CHECK(dup.anomalies[0].signature == "duplicate answer");
}

TEST_CASE("fuzz tracker: frames too deep to read are never parsed", "[fuzz_live]") {
  // 100 000 levels: parsing is iterative, but copying, printing or validating such a value
  // recurses once per level; the shared peer reader refuses it before that.
  const std::string deep_value = std::string(100000, '[') + std::string(100000, ']');
  const std::string deep_frame = R"({"jsonrpc":"2.0","id":3,"result":{"v":)" + deep_value + "}}";
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}), 0, Clock::now());
  auto r = t.on_frame(deep_frame, Clock::now());
  REQUIRE(oracles(r) == std::vector<std::string>{"not-json-rpc"});
  CHECK(r.anomalies[0].signature == "nested too deep");
  CHECK(r.anomalies[0].received.size() < 400);  // shortened for the report

  // An echo of something that deep that we sent ourselves is fair, and answers that request.
  json nested = json::array();
  for (int i = 0; i < 600; ++i) nested = json::array({nested});
  auto deep_call = msg({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/call"},
                        {"params", {{"name", "echo"}, {"arguments", {{"v", nested}}}}}});
  REQUIRE(deep_call.at_limits);
  t.on_sent(deep_call, 1, Clock::now());
  CHECK(t.pending() == 2);
  auto echo = t.on_frame(R"({"jsonrpc":"2.0","id":4,"result":{"v":)" + deep_value + "}}", Clock::now());
  CHECK(echo.anomalies.empty());
  CHECK(t.pending() == 1);  // the deep call is taken as answered; ping 3 still waits
  // ... but only once per such message.
  CHECK(oracles(t.on_frame(deep_frame, Clock::now())) == std::vector<std::string>{"not-json-rpc"});

  auto big = t.on_frame(R"({"jsonrpc":"2.0","id":3,"result":{"n":1e999}})", Clock::now());
  REQUIRE(oracles(big) == std::vector<std::string>{"not-json-rpc"});
  CHECK(big.anomalies[0].signature == "number out of range");
}

TEST_CASE("fuzz tracker: an id reused after its request was given up on is not judged", "[fuzz_live]") {
  // A slow tool call is forgotten (cancelled after a timeout); the fuzzer's id game reuses its id
  // for tools/list; the call's late answer then arrives. It must not be judged as tools/list's.
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", ""}, {"method", "tools/call"}, {"params", {{"name", "slow"}}}}), 0,
            Clock::now());
  t.forget(json(""));
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", ""}, {"method", "tools/list"}}), 1, Clock::now());
  CHECK(t.outstanding() == 0);  // either answer may come first: neither is owed
  auto late = t.on_frame(R"({"jsonrpc":"2.0","id":"","result":{"content":[{"type":"text","text":"done"}]}})",
                         Clock::now());
  CHECK(late.anomalies.empty());
}

TEST_CASE("fuzz tracker: a request cancelled before it was sent may go unanswered", "[fuzz_live]") {
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 21}}}}), 0,
            Clock::now());
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 21}, {"method", "ping"}}), 1, Clock::now());
  CHECK(t.outstanding() == 0);  // a server that remembered the cancellation drops it
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":21,"result":{}})", Clock::now()).anomalies.empty());  // answering is fine too
}

TEST_CASE("fuzz tracker: a message after a byte order mark is only maybe readable", "[fuzz_live]") {
  auto m = describe_message(std::string("\xEF\xBB\xBF") + R"({"jsonrpc":"2.0","id":5,"method":"ping"})", "test", kV, reg());
  CHECK(m.may_get_null_error);
  CHECK(m.demand == Demand::None);      // lenient readers accept it: no -32700 is owed
  REQUIRE(m.id.has_value());            // ... and answer under its id, which is allowed
  Tracker t(reg(), kV);
  t.on_sent(m, 0, Clock::now());
  CHECK(t.outstanding() == 0);          // strict ones refuse the line: the answer is not owed
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":5,"result":{}})", Clock::now()).anomalies.empty());
}

TEST_CASE("fuzz tracker: a malformed message after a byte order mark may be refused under its id", "[fuzz_live]") {
  // A lenient reader skips the mark, then refuses the message itself (-32600) under its id: that
  // id was ours, so the answer is no "unknown id" (seen in CI against mcpspec-testserver).
  auto m = describe_message(std::string("\xEF\xBB\xBF") + R"({"jsonrpc":"2.0","id":3318})", "test", kV, reg());
  REQUIRE(m.id.has_value());
  Tracker t(reg(), kV);
  t.on_sent(m, 0, Clock::now());
  CHECK(t.outstanding() == 0);
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":3318,"error":{"code":-32600,"message":"no method"}})", Clock::now())
            .anomalies.empty());
  // An id MCP does not allow, after the mark: echoing it is judged by schema, not taken as a wrong id.
  auto odd = describe_message(std::string("\xEF\xBB\xBF") + R"({"jsonrpc":"2.0","id":2.5})", "test", kV, reg());
  t.on_sent(odd, 1, Clock::now());
  auto r = t.on_frame(R"({"jsonrpc":"2.0","id":2.5,"error":{"code":-32600,"message":"no method"}})", Clock::now());
  CHECK(oracles(r) == std::vector<std::string>{"schema"});
}

TEST_CASE("fuzz tracker: an HTTP refusal settles malformed input but is a finding for a valid request",
          "[fuzz_live]") {
  Tracker t(reg(), kV);
  // params that break the envelope every request shares: refusing it whole is fair (HTTP-14).
  auto envelope = msg({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}, {"params", {{"_meta", false}}}});
  CHECK(refusable_over_http(envelope, kV, reg()));
  t.on_sent(envelope, 0, Clock::now());
  REQUIRE(t.outstanding() == 1);
  CHECK(t.on_rejected(0, 400, R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})", true).empty());
  CHECK(t.outstanding() == 0);
  // A valid request must be answered (HTTP-15): refusing it is a no-response finding that a replay
  // can check (it names the request's id).
  auto valid = msg({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}});
  CHECK_FALSE(refusable_over_http(valid, kV, reg()));
  t.on_sent(valid, 1, Clock::now());
  auto a = t.on_rejected(1, 400, R"({"error":{"code":-32600}})", false);
  REQUIRE(a.size() == 1);
  CHECK(a[0].oracle == "no-response");
  CHECK(a[0].signature == "refused with HTTP 400");
  CHECK(a[0].trigger_id == json(2));
  CHECK(t.outstanding() == 0);
  // Params wrong only for this method still make a valid request; a repeated initialize, a
  // notification and unparsable text may all be refused.
  CHECK_FALSE(refusable_over_http(
      msg({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"}, {"params", {{"name", 5}}}}), kV, reg()));
  CHECK(refusable_over_http(msg({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "initialize"}, {"params", json::object()}}),
                            kV, reg()));
  CHECK(refusable_over_http(msg({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}), kV, reg()));
  CHECK(refusable_over_http(describe_message(std::string("{oops"), "test", kV, reg()), kV, reg()));
  // A late answer to a refused request is not a wrong id.
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":2,"result":{}})", Clock::now()).anomalies.empty());
}

TEST_CASE("fuzz tracker: the answer to a reused id is not judged by content", "[fuzz_live]") {
  // MCP forbids reusing an id in a session; over HTTP the two answers may even be swapped.
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", "x"}, {"method", "logging/setLevel"}, {"params", json::object()}}), 0,
            Clock::now());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"level"}})", Clock::now())
            .anomalies.empty());
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", "x"}, {"method", "mcpspec.fuzz/unknown-1"}}), 1, Clock::now());
  CHECK(t.outstanding() == 1);  // still owed an answer
  // -32602 where an unknown method owes -32601: it may be the first request's answer again.
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"level"}})", Clock::now())
            .anomalies.empty());
  CHECK(t.outstanding() == 0);
}

TEST_CASE("fuzz tracker: an id with invalid UTF-8 is tracked as the peer reads it", "[fuzz_live]") {
  // The text sent replaces invalid bytes with U+FFFD; the answer carries the replaced id.
  Tracker t(reg(), kV);
  auto m = msg({{"jsonrpc", "2.0"}, {"id", std::string("a\xFF")}, {"method", "ping"}});
  REQUIRE(m.id);
  CHECK(*m.id == json("a\xEF\xBF\xBD"));
  t.on_sent(m, 0, Clock::now());
  CHECK(t.on_frame("{\"jsonrpc\":\"2.0\",\"id\":\"a\xEF\xBF\xBD\",\"result\":{}}", Clock::now()).anomalies.empty());
  CHECK(t.outstanding() == 0);
}

TEST_CASE("fuzz tracker: a message followed by a NUL byte is only maybe readable", "[fuzz_live]") {
  // Not JSON text (RFC 8259), yet nlohmann stops at the NUL and reads the value before it: an
  // answer under its id is allowed, as is a refusal or an error with id null.
  auto m = describe_message(std::string("{\"id\":7,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}\0", 41), "test", kV, reg());
  CHECK(m.may_get_null_error);
  CHECK(m.demand == Demand::None);
  REQUIRE(m.id);
  CHECK(*m.id == json(7));
  CHECK(refusable_over_http(m, kV, reg()));
  Tracker t(reg(), kV);
  t.on_sent(m, 0, Clock::now());
  CHECK(t.outstanding() == 0);
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":7,"result":{}})", Clock::now()).anomalies.empty());
}

TEST_CASE("fuzz tracker: a second answer to a reused id is not a finding, to a fresh one it is", "[fuzz_live]") {
  Tracker t(reg(), kV);
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", ""}, {"method", "ping"}}), 0, Clock::now());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":"","result":{}})", Clock::now()).anomalies.empty());
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", ""}, {"method", "ping"}}), 1, Clock::now());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":"","result":{}})", Clock::now()).anomalies.empty());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":"","result":{}})", Clock::now()).anomalies.empty());
  t.on_sent(msg({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "ping"}}), 2, Clock::now());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":9,"result":{}})", Clock::now()).anomalies.empty());
  auto dup = t.on_frame(R"({"jsonrpc":"2.0","id":9,"result":{}})", Clock::now());
  REQUIRE(oracles(dup) == std::vector<std::string>{"wrong-id"});
  CHECK(dup.anomalies[0].signature == "duplicate answer");
}

namespace {

// The handshake the live session performs, through the tracker: the server declares `caps`.
Tracker after_handshake(const json& caps) {
  Tracker t(reg(), kV);
  t.new_session();
  t.on_sent(msg({{"jsonrpc", "2.0"},
                 {"id", 0},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", kV},
                   {"capabilities", json::object()},
                   {"clientInfo", {{"name", "f"}, {"version", "1"}}}}}}),
            1000000, Clock::now());
  json answer = {{"jsonrpc", "2.0"},
                 {"id", 0},
                 {"result", {{"protocolVersion", kV}, {"capabilities", caps}, {"serverInfo", {{"name", "s"}, {"version", "1"}}}}}};
  t.on_frame(answer.dump(), Clock::now());
  t.initialized_sent();
  return t;
}

}  // namespace

TEST_CASE("fuzz tracker: the scenario monitors judge the server's own messages (oracle monitor)", "[fuzz_live]") {
  SECTION("a list_changed the server did not declare (LC-15), not one it did") {
    Tracker t = after_handshake({{"tools", json::object()}});
    auto r = t.on_frame(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})", Clock::now());
    REQUIRE(oracles(r) == std::vector<std::string>{"monitor"});
    CHECK(r.anomalies.front().requirements == std::vector<std::string>{"LC-15"});
    CHECK(requirements_of(r.anomalies.front()) == std::vector<std::string>{"LC-15"});
    Tracker declared = after_handshake({{"tools", {{"listChanged", true}}}});
    CHECK(declared.on_frame(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})", Clock::now())
              .anomalies.empty());
  }
  SECTION("progress for a token the fuzzer sent is fine; for one it never sent, PROG-06") {
    Tracker t = after_handshake({{"tools", json::object()}});
    t.on_sent(msg({{"jsonrpc", "2.0"},
                   {"id", 3},
                   {"method", "tools/call"},
                   {"params", {{"name", "x"}, {"_meta", {{"progressToken", "tk"}}}}}}),
              0, Clock::now());
    CHECK(t.on_frame(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tk","progress":1}})",
                     Clock::now())
              .anomalies.empty());
    // A repeated value is not judged: the fuzzer may put one token on several requests at once.
    CHECK(t.on_frame(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tk","progress":1}})",
                     Clock::now())
              .anomalies.empty());
    auto r = t.on_frame(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"zz","progress":1}})",
                        Clock::now());
    REQUIRE(oracles(r) == std::vector<std::string>{"monitor"});
    CHECK(r.anomalies.front().requirements == std::vector<std::string>{"PROG-06"});
  }
  SECTION("a server request id used twice (BASE-05)") {
    Tracker t = after_handshake(json::object());
    CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":"s","method":"ping"})", Clock::now()).anomalies.empty());
    auto r = t.on_frame(R"({"jsonrpc":"2.0","id":"s","method":"ping"})", Clock::now());
    REQUIRE(oracles(r) == std::vector<std::string>{"monitor"});
    CHECK(r.anomalies.front().requirements == std::vector<std::string>{"BASE-05"});
  }
  SECTION("a new session forgets the old handshake") {
    Tracker t = after_handshake({{"tools", {{"listChanged", true}}}});
    t.new_session();
    CHECK(t.on_frame(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})", Clock::now())
              .anomalies.empty());  // nothing declared yet: not judged
  }
}
