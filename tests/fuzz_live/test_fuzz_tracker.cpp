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
  CHECK(r.anomalies[0].method == "mcpspec.fuzz/unknown-1");
  t.on_sent(m, 1, Clock::now());
  auto w = t.on_frame(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"no"}})", Clock::now());
  CHECK(oracles(w) == std::vector<std::string>{"wrong-error-code"});
  t.on_sent(m, 2, Clock::now());
  CHECK(t.on_frame(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}})", Clock::now()).anomalies.empty());
}

TEST_CASE("fuzz tracker: schema of the answer by the method it answers; non-JSON output", "[fuzz_live]") {
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

TEST_CASE("fuzz tracker: cancelled requests may go unanswered; a server ping is answered", "[fuzz_live]") {
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
