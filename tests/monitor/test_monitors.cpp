// The monitor units, each proven by the fault it catches, in the role(s) it applies to. The same
// Monitors object serves a server under test (peer = Server) and a client under test (peer = Client).
#include "harness/monitor/capabilities.hpp"
#include "harness/monitor/envelope.hpp"
#include "harness/monitor/framing.hpp"
#include "harness/monitor/monitors.hpp"
#include "harness/monitor/schema_monitor.hpp"
#include "harness/protocol/peer_json.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using mcpspec::monitor::Finding;
using mcpspec::monitor::Findings;
using mcpspec::monitor::Monitors;
using mcpspec::protocol::Sender;
using nlohmann::json;

namespace {

Monitors make(Sender peer) {
  return Monitors(peer, [](std::string_view v) { return v == "2025-06-18" || v == "2025-11-25"; });
}

// Sends `message` as the harness.
void out(Monitors& m, const json& message) { m.outbound(message, mcpspec::protocol::classify(message), false); }
// Judges `message` from the target.
Findings in(Monitors& m, const json& message) {
  return m.inbound(message, mcpspec::protocol::classify(message), "2025-11-25").findings;
}

bool has(const Findings& f, const std::string& requirement) {
  return std::any_of(f.begin(), f.end(), [&](const Finding& x) {
    return std::find(x.requirements.begin(), x.requirements.end(), requirement) != x.requirements.end();
  });
}

json request(json id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}
json notification(const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}
json result(json id, json r = json::object()) { return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"result", std::move(r)}}; }

json init_params(json caps) {
  return {{"protocolVersion", "2025-11-25"}, {"capabilities", std::move(caps)},
          {"clientInfo", {{"name", "t"}, {"version", "1"}}}};
}
json init_result(json caps) {
  return {{"protocolVersion", "2025-11-25"}, {"capabilities", std::move(caps)},
          {"serverInfo", {{"name", "t"}, {"version", "1"}}}};
}

// A server under test after a complete handshake (the harness declared `client_caps`).
Monitors server_session(json server_caps, json client_caps = json::object()) {
  Monitors m = make(Sender::Server);
  out(m, request(1, "initialize", init_params(std::move(client_caps))));
  in(m, result(1, init_result(std::move(server_caps))));
  out(m, notification("notifications/initialized"));
  return m;
}

// A client under test after a complete handshake (the harness declared `server_caps`).
Monitors client_session(json server_caps, json client_caps = json::object()) {
  Monitors m = make(Sender::Client);
  in(m, request(0, "initialize", init_params(std::move(client_caps))));
  out(m, result(0, init_result(std::move(server_caps))));
  in(m, notification("notifications/initialized"));
  return m;
}

}  // namespace

TEST_CASE("ids: a request id the target reuses, even after it was answered, in both roles (BASE-05)", "[monitor]") {
  SECTION("server under test") {
    Monitors m = server_session({{"tools", json::object()}}, {{"roots", json::object()}});
    CHECK(in(m, request("s1", "roots/list")).empty());
    out(m, result("s1", {{"roots", json::array()}}));
    CHECK(has(in(m, request("s1", "roots/list")), "BASE-05"));
  }
  SECTION("client under test") {
    Monitors m = client_session({{"tools", json::object()}});
    CHECK(in(m, request(7, "tools/list")).empty());
    out(m, result(7, {{"tools", json::array()}}));
    CHECK(has(in(m, request(7, "tools/list")), "BASE-05"));
  }
}

TEST_CASE("ids: responses to nothing, and second responses, in both roles", "[monitor]") {
  for (Sender peer : {Sender::Server, Sender::Client}) {
    Monitors m = peer == Sender::Server ? server_session(json::object()) : client_session(json::object());
    out(m, request(42, "ping"));
    auto first = m.inbound(result(42), mcpspec::protocol::classify(result(42)), "2025-11-25");
    CHECK(first.findings.empty());
    CHECK(first.answered_method == "ping");
    CHECK(has(in(m, result(42)), "MCPSPEC-RESPONSE"));
    CHECK(has(in(m, result(43)), "BASE-06"));
    CHECK(has(in(m, json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"result", json::object()}}), "BASE-12"));
  }
}

TEST_CASE("ids: an id-less error answering a frame made unreadable on purpose is excused once", "[monitor]") {
  json error = {{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", -32700}, {"message", "parse"}}}};
  for (Sender peer : {Sender::Server, Sender::Client}) {
    Monitors m = make(peer);
    m.unreadable_sent();
    CHECK(in(m, error).empty());
    CHECK(has(in(m, error), "BASE-12"));
  }
}

TEST_CASE("lifecycle: a server's request before the client's initialized (LC-06)", "[monitor]") {
  Monitors m = make(Sender::Server);
  out(m, request(1, "initialize", init_params({{"sampling", json::object()}})));
  in(m, result(1, init_result(json::object())));
  CHECK(has(in(m, request("a", "sampling/createMessage")), "LC-06"));
  CHECK(in(m, request("b", "ping")).empty());
  out(m, notification("notifications/initialized"));
  CHECK_FALSE(has(in(m, request("c", "sampling/createMessage")), "LC-06"));
}

TEST_CASE("lifecycle: a client's order of initialization (LC-02, LC-05, LC-04)", "[monitor]") {
  Monitors first = make(Sender::Client);
  CHECK(has(in(first, request(1, "tools/list")), "LC-02"));

  Monitors early = make(Sender::Client);
  in(early, request(0, "initialize", init_params(json::object())));
  CHECK(has(in(early, request(1, "tools/list")), "LC-05"));
  CHECK(has(in(early, notification("notifications/initialized")), "LC-04"));

  Monitors no_initialized = make(Sender::Client);
  in(no_initialized, request(0, "initialize", init_params(json::object())));
  out(no_initialized, result(0, init_result({{"tools", json::object()}})));
  CHECK(has(in(no_initialized, request(1, "tools/list")), "LC-04"));

  Monitors good = client_session({{"tools", json::object()}});
  CHECK(in(good, request(1, "tools/list")).empty());
}

TEST_CASE("capabilities: a message needing a capability its side did not declare, in both roles", "[monitor]") {
  SECTION("a server's list_changed without listChanged (LC-15) and a log without logging (LOG-01)") {
    Monitors m = server_session({{"tools", json::object()}});
    CHECK(has(in(m, notification("notifications/tools/list_changed")), "LC-15"));
    CHECK(has(in(m, notification("notifications/message", {{"level", "info"}, {"data", "x"}})), "LOG-01"));
    Monitors declared = server_session({{"tools", {{"listChanged", true}}}});
    CHECK(in(declared, notification("notifications/tools/list_changed")).empty());
  }
  SECTION("a server's request for a client capability the harness did not declare") {
    Monitors m = server_session(json::object(), json::object());
    CHECK(has(in(m, request("s", "sampling/createMessage")), "LC-15"));
  }
  SECTION("a client's request for a server capability the harness did not declare, and its roots/list_changed") {
    Monitors m = client_session(json::object(), {{"roots", json::object()}});
    CHECK(has(in(m, request(1, "tools/list")), "LC-15"));
    CHECK(has(in(m, notification("notifications/roots/list_changed")), "LC-15"));
  }
  SECTION("nothing is judged before the handshake says what was declared") {
    Monitors m = make(Sender::Server);
    CHECK(in(m, notification("notifications/tools/list_changed")).empty());
  }
}

TEST_CASE("progress: tokens of the harness's requests, in both roles (PROG-06, PROG-03, PROG-10)", "[monitor]") {
  for (Sender peer : {Sender::Server, Sender::Client}) {
    Monitors m = peer == Sender::Server ? server_session({{"tools", json::object()}}) : client_session(json::object(), {{"roots", json::object()}});
    std::string method = peer == Sender::Server ? "tools/call" : "roots/list";
    json params = peer == Sender::Server ? json{{"name", "x"}, {"_meta", {{"progressToken", "t1"}}}}
                                         : json{{"_meta", {{"progressToken", "t1"}}}};
    out(m, request(9, method, params));
    CHECK(in(m, notification("notifications/progress", {{"progressToken", "t1"}, {"progress", 1}})).empty());
    CHECK(has(in(m, notification("notifications/progress", {{"progressToken", "t1"}, {"progress", 1}})), "PROG-03"));
    CHECK(has(in(m, notification("notifications/progress", {{"progressToken", "zz"}, {"progress", 1}})), "PROG-06"));
    in(m, result(9, json::object()));
    CHECK(has(in(m, notification("notifications/progress", {{"progressToken", "t1"}, {"progress", 5}})), "PROG-10"));
  }
}

TEST_CASE("progress: the target's own tokens, in both roles (PROG-01, PROG-02)", "[monitor]") {
  SECTION("a client's") {
    Monitors m = client_session({{"tools", json::object()}});
    CHECK(has(in(m, request(1, "tools/list", {{"_meta", {{"progressToken", 1.5}}}})), "PROG-01"));
    in(m, request(2, "tools/list", {{"_meta", {{"progressToken", "p"}}}}));
    CHECK(has(in(m, request(3, "tools/list", {{"_meta", {{"progressToken", "p"}}}})), "PROG-02"));
    out(m, result(2, {{"tools", json::array()}}));
    out(m, result(3, {{"tools", json::array()}}));
    CHECK(in(m, request(4, "tools/list", {{"_meta", {{"progressToken", "p"}}}})).empty());
  }
  SECTION("a server's") {
    Monitors m = server_session(json::object(), {{"roots", json::object()}});
    in(m, request("a", "roots/list", {{"_meta", {{"progressToken", "p"}}}}));
    CHECK(has(in(m, request("b", "roots/list", {{"_meta", {{"progressToken", "p"}}}})), "PROG-02"));
  }
}

TEST_CASE("cancellation: the target cancels what it never sent (CAN-01), a client its initialize (CAN-02)", "[monitor]") {
  SECTION("client under test") {
    Monitors m = make(Sender::Client);
    in(m, request(0, "initialize", init_params(json::object())));
    CHECK(has(in(m, notification("notifications/cancelled", {{"requestId", 0}})), "CAN-02"));
    CHECK(has(in(m, notification("notifications/cancelled", {{"requestId", 99}})), "CAN-01"));
  }
  SECTION("server under test") {
    Monitors m = server_session(json::object(), {{"roots", json::object()}});
    out(m, request(5, "tools/list"));
    // The harness's own request is not the server's to cancel.
    CHECK(has(in(m, notification("notifications/cancelled", {{"requestId", 5}})), "CAN-01"));
    in(m, request("r", "roots/list"));
    CHECK(in(m, notification("notifications/cancelled", {{"requestId", "r"}})).empty());
  }
}

TEST_CASE("a new MCP session forgets the old one", "[monitor]") {
  Monitors m = client_session({{"tools", json::object()}});
  in(m, request(1, "tools/list"));
  m.reset();
  CHECK(m.ledger().client_caps.is_null());
  in(m, request(0, "initialize", init_params(json::object())));
  CHECK_FALSE(has(in(m, request(0, "initialize", init_params(json::object()))), "LC-02"));
  Monitors fresh = client_session({{"tools", json::object()}});
  fresh.reset();
  CHECK(has(in(fresh, request(1, "tools/list")), "LC-02"));
}

TEST_CASE("the handshake sets the validation versions only for versions mcpspec knows", "[monitor]") {
  Monitors m = make(Sender::Server);
  json params = init_params(json::object());
  params["protocolVersion"] = "2025-06-18";
  out(m, request(1, "initialize", params));
  CHECK(m.ledger().proposed == "2025-06-18");
  json answer = init_result(json::object());
  answer["protocolVersion"] = "2099-01-01";
  auto judged = m.inbound(result(1, answer), mcpspec::protocol::classify(result(1, answer)), "2025-06-18");
  CHECK(m.ledger().negotiated.empty());
  REQUIRE(judged.events.size() == 1);
  CHECK(judged.events.front().find("2099-01-01") != std::string::npos);
}

TEST_CASE("framing, envelope and schema units name their requirements by who wrote the message", "[monitor]") {
  CHECK(mcpspec::monitor::unparsable_frame("hello", Sender::Server).requirements == std::vector<std::string>{"STDIO-03"});
  CHECK(mcpspec::monitor::unparsable_frame("hello", Sender::Client).requirements.front() == "STDIO-04");
  CHECK(mcpspec::monitor::unparsable_frame("", Sender::Client).requirements == std::vector<std::string>{"STDIO-02"});
  CHECK(mcpspec::monitor::unparsable_frame("  {\"a\":", Sender::Server).message.find("fragment") != std::string::npos);
  // Bytes that are not UTF-8 are named as such, from the JSON reader's own error, not as a fragment.
  const std::string not_utf8 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":\"\xff\xfe\"}}";
  auto read = mcpspec::protocol::read_peer_json(not_utf8);
  REQUIRE(read.status == mcpspec::protocol::PeerJson::Status::NotJson);
  auto utf8 = mcpspec::monitor::unparsable_frame(not_utf8, Sender::Server, read.detail);
  CHECK(utf8.message.find("not UTF-8") != std::string::npos);
  CHECK(utf8.requirements == std::vector<std::string>{"STDIO-03"});
  CHECK(mcpspec::monitor::unparsable_frame("{\"a\":", Sender::Server, "syntax error").message.find("fragment") != std::string::npos);
  // A message-framed carrier names its own rules and place: no stdio rule over HTTP.
  auto body = mcpspec::monitor::unparsable_message("the 200 answer to POST ping (Content-Type text/plain)",
                                                   {"HTTP-15", "BASE-01"}, "syntax error");
  CHECK(body.monitor == "framing");
  CHECK(body.requirements == std::vector<std::string>{"HTTP-15", "BASE-01"});
  CHECK(body.message.find("text/plain") != std::string::npos);
  CHECK(mcpspec::monitor::unparsable_message("a WebSocket text message", {"BASE-01"}, read.detail).message.find("not UTF-8") !=
        std::string::npos);

  json bad = {{"jsonrpc", "1.0"}, {"id", 1}, {"result", json::object()}};
  auto envelope = mcpspec::monitor::envelope_findings(mcpspec::protocol::classify(bad));
  REQUIRE_FALSE(envelope.empty());
  CHECK(envelope.front().monitor == "envelope");

  const auto& schemas = mcpspec::protocol::SchemaRegistry::builtin();
  json tools = result(1, {{"tools", {{{"name", 5}}}}});
  auto judged = mcpspec::monitor::judge_schema(schemas, tools, "2025-11-25", Sender::Server, "tools/list");
  REQUIRE(judged.finding);
  CHECK(judged.finding->requirements == std::vector<std::string>{"MCPSPEC-SCHEMA"});
  CHECK(judged.finding->message.find("/result/tools/0") != std::string::npos);
  CHECK_FALSE(mcpspec::monitor::judge_schema(schemas, result(1, {{"tools", json::array()}}), "2025-11-25",
                                             Sender::Server, "tools/list")
                  .finding);
}
