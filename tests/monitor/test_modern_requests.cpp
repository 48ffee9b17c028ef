// The modern_requests monitor (a client's duties at 2026-07-28), each rule proven by the fault it
// catches and by a correct message it lets pass; plus the MRTR retry judge and the HTTP header
// checks of the client role's server end.
#include "harness/monitor/monitors.hpp"
#include "harness/scenario/mrtr_retry.hpp"
#include "harness/transport/http/modern_header_checks.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using mcpspec::monitor::Finding;
using mcpspec::monitor::Findings;
using mcpspec::monitor::Monitors;
using mcpspec::protocol::Sender;
using nlohmann::json;

namespace {

const std::string kModern = "2026-07-28";

Monitors client_monitors() { return Monitors(Sender::Client, [](std::string_view) { return true; }); }

Findings in(Monitors& m, const json& message, const std::string& version = kModern) {
  return m.inbound(message, mcpspec::protocol::classify(message), version).findings;
}
void out(Monitors& m, const json& message) { m.outbound(message, mcpspec::protocol::classify(message), false); }

bool has(const Findings& f, const std::string& requirement) {
  return std::any_of(f.begin(), f.end(), [&](const Finding& x) {
    return std::find(x.requirements.begin(), x.requirements.end(), requirement) != x.requirements.end();
  });
}

json meta() {
  return {{"io.modelcontextprotocol/protocolVersion", kModern},
          {"io.modelcontextprotocol/clientCapabilities", json::object()},
          {"io.modelcontextprotocol/clientInfo", {{"name", "c"}, {"version", "1"}}}};
}
json modern_request(json id, const std::string& method, json params = json::object()) {
  params["_meta"].update(meta());
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace

TEST_CASE("modern_requests: a complete modern request passes, and no legacy lifecycle applies", "[monitor][modern]") {
  Monitors m = client_monitors();
  auto f = in(m, modern_request(1, "tools/list"));
  CHECK(f.empty());  // not LC-02 "first request is not initialize"
}

TEST_CASE("modern_requests: missing version or capabilities is META-01, a nameless client META-03", "[monitor][modern]") {
  Monitors m = client_monitors();
  json r = modern_request(1, "tools/list");
  r["params"]["_meta"].erase("io.modelcontextprotocol/protocolVersion");
  CHECK(has(in(m, r), "META-01"));
  json c = modern_request(2, "tools/list");
  c["params"]["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
  CHECK(has(in(m, c), "META-01"));
  json n = modern_request(3, "tools/list");
  n["params"]["_meta"].erase("io.modelcontextprotocol/clientInfo");
  auto f = in(m, n);
  CHECK(has(f, "META-03"));
  CHECK_FALSE(has(f, "META-01"));
  CHECK(has(in(m, json{{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/list"}}), "META-01"));
}

TEST_CASE("modern_requests: responses, removed methods and a fall back after a modern answer", "[monitor][modern]") {
  Monitors m = client_monitors();
  CHECK(has(in(m, json{{"jsonrpc", "2.0"}, {"id", "k"}, {"result", json::object()}}), "BASE-23"));
  CHECK(has(in(m, modern_request(1, "ping")), "MCPSPEC-SCHEMA"));
  in(m, modern_request(2, "server/discover"));
  out(m, json{{"jsonrpc", "2.0"}, {"id", 2}, {"result", {{"resultType", "complete"}}}});
  json init = {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "initialize"},
               {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}}}};
  CHECK(has(in(m, init), "VER-08"));
}

TEST_CASE("modern_requests: a fall back to initialize after an error is legacy, judged by the legacy monitors", "[monitor][modern]") {
  Monitors m = client_monitors();
  in(m, modern_request(1, "server/discover"));
  out(m, json{{"jsonrpc", "2.0"}, {"id", 1}, {"error", {{"code", -32601}, {"message", "no"}}}});
  json init = {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "initialize"},
               {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}}}};
  CHECK_FALSE(has(in(m, init), "VER-08"));
  // Legacy versions are not judged by this monitor at all.
  Monitors legacy = client_monitors();
  CHECK_FALSE(has(in(legacy, json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}, "2025-11-25"), "META-01"));
}

TEST_CASE("modern_requests: _meta key names and traceparent", "[monitor][modern]") {
  auto judged = [](const std::string& key, json value) {
    Monitors m = client_monitors();
    json r = modern_request(1, "tools/list");
    r["params"]["_meta"][key] = std::move(value);
    return in(m, r);
  };
  CHECK(judged("dev.mcpspec/run-1", 1).empty());
  CHECK(judged("progressToken", "t").empty());
  CHECK(judged("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").empty());
  CHECK(has(judged("1dev.mcpspec/run", 1), "BASE-19"));
  CHECK(has(judged("dev..mcpspec/run", 1), "BASE-19"));
  CHECK(has(judged("dev.mcpspec/-run", 1), "BASE-20"));
  CHECK(has(judged("dev.mcpspec/run!", 1), "BASE-20"));
  CHECK(has(judged("traceparent", "not-a-trace"), "BASE-24"));
  CHECK(has(judged("traceparent", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"), "BASE-24"));
}

TEST_CASE("mrtr retry: new id, same params, every key answered, state echoed", "[scenario][mrtr]") {
  using mcpspec::scenario::judge_retry;
  json original = {{"jsonrpc", "2.0"}, {"id", 5}, {"method", "tools/call"},
                   {"params", {{"name", "deploy"}, {"arguments", {{"x", 1}}}, {"_meta", meta()}}}};
  json ir = {{"resultType", "input_required"}, {"inputRequests", {{"a", json::object()}, {"b", json::object()}}},
             {"requestState", "s1"}};
  json good = original;
  good["id"] = 6;
  good["params"]["inputResponses"] = {{"a", json::object()}, {"b", json::object()}};
  good["params"]["requestState"] = "s1";
  CHECK(mcpspec::scenario::is_retry_of(original, good));
  CHECK(judge_retry(original, ir, good).empty());
  auto first_req = [&](json retry) {
    auto p = judge_retry(original, ir, retry);
    return p.empty() ? std::string() : p.front().requirement;
  };
  json old_id = good;
  old_id["id"] = 5;
  CHECK(first_req(old_id) == "MRTR-12");
  json no_state = good;
  no_state["params"].erase("requestState");
  CHECK(first_req(no_state) == "MRTR-10");
  json other_state = good;
  other_state["params"]["requestState"] = "s2";
  CHECK(first_req(other_state) == "MRTR-10");
  json missing = good;
  missing["params"]["inputResponses"].erase("b");
  CHECK(first_req(missing) == "MRTR-09");
  json changed = good;
  changed["params"]["arguments"]["x"] = 2;
  CHECK(first_req(changed) == "MRTR-11");
  json stateless_ir = ir;
  stateless_ir.erase("requestState");
  CHECK(judge_retry(original, stateless_ir, good).front().requirement == "MRTR-10");  // state where none was given
  json other_tool = good;
  other_tool["params"]["name"] = "other";
  CHECK_FALSE(mcpspec::scenario::is_retry_of(original, other_tool));
}

TEST_CASE("mrtr retry: another request's round never leaks into it (MRTR-13)", "[scenario][mrtr]") {
  using mcpspec::scenario::judge_retry;
  json original = {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
                   {"params", {{"name", "status"}, {"arguments", json::object()}}}};
  json own = {{"resultType", "input_required"}, {"inputRequests", {{"pick", json::object()}}}};
  json other = {{"resultType", "input_required"}, {"inputRequests", {{"confirm", json::object()}}},
                {"requestState", "state-of-deploy"}};
  json good = original;
  good["id"] = 4;
  good["params"]["inputResponses"] = {{"pick", json::object()}};
  CHECK(judge_retry(original, own, good, {other}).empty());
  json leaked_key = good;
  leaked_key["params"]["inputResponses"]["confirm"] = json::object();
  auto p = judge_retry(original, own, leaked_key, {other});
  REQUIRE(p.size() == 1);
  CHECK(p.front().requirement == "MRTR-13");
  json leaked_state = good;
  leaked_state["params"]["requestState"] = "state-of-deploy";
  p = judge_retry(original, own, leaked_state, {other});
  REQUIRE(p.size() == 1);  // reported as the leak, not again as a state where none was given
  CHECK(p.front().requirement == "MRTR-13");
  // A key or state the round gave the retried request as well is its own.
  json shared = own;
  shared["inputRequests"]["confirm"] = json::object();
  shared["requestState"] = "state-of-deploy";
  json both = leaked_state;
  both["params"]["inputResponses"]["confirm"] = json::object();
  CHECK(judge_retry(original, shared, both, {other}).empty());
  // Without the other round, the stray state is an MRTR-10 problem as before.
  CHECK(judge_retry(original, own, leaked_state).front().requirement == "MRTR-10");
}

TEST_CASE("modern headers: version, method and name checked against the body", "[transport][modern]") {
  using mcpspec::transport::http::check_modern_headers;
  json body = modern_request(1, "tools/call", {{"name", "météo"}});
  std::map<std::string, std::string> h = {{"MCP-Protocol-Version", kModern}, {"Mcp-Method", "tools/call"},
                                          {"Mcp-Name", "=?base64?bcOpdMOpbw==?="}};
  auto read = [&h](const char* n) { return h.count(n) ? h[n] : std::string(); };
  CHECK(check_modern_headers(body, read).empty());
  auto first = [&] {
    auto p = check_modern_headers(body, read);
    return p.empty() ? std::string() : p.front().requirements.front();
  };
  h["Mcp-Name"] = "météo";
  CHECK(first() == "HDR-02");
  h["Mcp-Name"] = "=?base64?bcOpdMOpbw==?=";
  h["Mcp-Method"] = "tools/list";
  CHECK(first() == "HDR-01");
  h["Mcp-Method"] = "tools/call";
  h["MCP-Protocol-Version"] = "2025-11-25";
  CHECK(first() == "HTTP-PV-02");
  h.erase("MCP-Protocol-Version");
  CHECK(first() == "HTTP-PV-01");
}

TEST_CASE("modern headers: x-mcp-header arguments mirrored into Mcp-Param-*", "[transport][modern]") {
  using namespace mcpspec::transport::http;
  json list = {{"tools", {{{"name", "t"},
                           {"inputSchema", {{"type", "object"},
                                            {"properties", {{"n", {{"type", "integer"}, {"x-mcp-header", "N"}}},
                                                            {"b", {{"type", "boolean"}, {"x-mcp-header", "B"}}},
                                                            {"s", {{"type", "string"}, {"x-mcp-header", "S"}}}}}}}}}}};
  ToolParamHeaders ann;
  learn_param_headers(list, ann);
  REQUIRE(ann["t"].size() == 3);
  json body = modern_request(1, "tools/call", {{"name", "t"}, {"arguments", {{"n", 42}, {"b", true}}}});
  std::map<std::string, std::string> h = {{"Mcp-Param-N", "42"}, {"Mcp-Param-B", "true"}};
  auto read = [&h](const std::string& n) { return h.count(n) ? h[n] : std::string(); };
  CHECK(check_param_headers(body, ann["t"], read).empty());
  h["Mcp-Param-B"] = "True";
  CHECK(check_param_headers(body, ann["t"], read).front().requirements.front() == "HDR-11");
  h.erase("Mcp-Param-B");
  CHECK(check_param_headers(body, ann["t"], read).front().requirements.front() == "HDR-08");
  h["Mcp-Param-B"] = "true";
  h["Mcp-Param-S"] = "x";  // s is absent from the arguments
  CHECK(check_param_headers(body, ann["t"], read).front().requirements.front() == "HDR-08");
}

TEST_CASE("modern headers: nested x-mcp-header arguments and integral floats are checked like the harness sends them",
          "[transport][modern]") {
  using namespace mcpspec::transport::http;
  json list = {{"tools", {{{"name", "sql"},
                           {"inputSchema",
                            {{"type", "object"},
                             {"properties",
                              {{"opts", {{"type", "object"},
                                         {"properties", {{"limit", {{"type", "integer"}, {"x-mcp-header", "Limit"}}}}}}}}}}}}}}};
  ToolParamHeaders ann;
  learn_param_headers(list, ann);
  json body = modern_request(1, "tools/call", {{"name", "sql"}, {"arguments", {{"opts", {{"limit", 42.0}}}}}});
  // The header the harness would send as a client is the one it accepts as a server.
  auto sent = modern_request_headers(body, ann);
  std::map<std::string, std::string> h;
  for (const auto& [k, v] : sent) h[k] = v;
  REQUIRE(h["Mcp-Param-Limit"] == "42");
  auto read = [&h](const std::string& n) { return h.count(n) ? h[n] : std::string(); };
  CHECK(check_param_headers(body, ann["sql"], read).empty());
  json fraction = modern_request(2, "tools/call", {{"name", "sql"}, {"arguments", {{"opts", {{"limit", 1.5}}}}}});
  CHECK(check_param_headers(fraction, ann["sql"], [](const std::string&) { return std::string(); }).empty());  // nothing owed
  h.erase("Mcp-Param-Limit");  // a nested argument left unmirrored: the old top-level reading missed it
  auto p = check_param_headers(body, ann["sql"], read);
  REQUIRE(p.size() == 1);
  CHECK(p.front().requirements.front() == "HDR-08");
  CHECK(p.front().text.find("opts.limit") != std::string::npos);
}

TEST_CASE("modern headers: Mcp-Name of the tasks extension's requests is the taskId (XTASK-26)", "[transport][modern]") {
  using namespace mcpspec::transport::http;
  CHECK(std::string(mcp_name_member("tasks/get")) == "taskId");
  CHECK(std::string(mcp_name_member("tasks/cancel")) == "taskId");
  CHECK(std::string(mcp_name_member("tasks/update")) == "taskId");
  CHECK(mcp_name_member("tasks/list") == nullptr);
  CHECK(mcp_name_member("tools/list") == nullptr);
  json body = modern_request(1, "tasks/get", {{"taskId", "t-1"}});
  std::map<std::string, std::string> h = {{"MCP-Protocol-Version", kModern}, {"Mcp-Method", "tasks/get"}, {"Mcp-Name", "t-1"}};
  auto read = [&h](const char* n) { return h.count(n) ? h[n] : std::string(); };
  CHECK(check_modern_headers(body, read).empty());
  h["Mcp-Name"] = "t-2";
  REQUIRE(check_modern_headers(body, read).size() == 1);
  CHECK(check_modern_headers(body, read).front().requirements.front() == "XTASK-26");
  h.erase("Mcp-Name");
  CHECK(check_modern_headers(body, read).front().requirements.front() == "XTASK-26");
  ToolParamHeaders none;
  auto sent = modern_request_headers(body, none);
  bool named = false;
  for (const auto& [k, v] : sent) named = named || (k == "Mcp-Name" && v == "t-1");
  CHECK(named);
}
