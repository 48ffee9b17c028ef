// The modern-results monitor (protocol 2026-07-28, server under test): each rule proven by the
// fault it catches, and silent on the correct message next to it.
#include "harness/monitor/monitors.hpp"
#include "harness/protocol/era.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using mcpspec::monitor::Finding;
using mcpspec::monitor::Findings;
using mcpspec::monitor::Monitors;
using mcpspec::protocol::Sender;
using nlohmann::json;

namespace {

constexpr const char* kModern = "2026-07-28";

Monitors make(Sender peer = Sender::Server) {
  return Monitors(peer, [](std::string_view v) { return v == kModern || v == "2025-11-25"; });
}
void out(Monitors& m, const json& message) { m.outbound(message, mcpspec::protocol::classify(message), false); }
Findings in(Monitors& m, const json& message, const std::string& version = kModern) {
  return m.inbound(message, mcpspec::protocol::classify(message), version).findings;
}
bool has(const Findings& f, const std::string& requirement) {
  return std::any_of(f.begin(), f.end(), [&](const Finding& x) {
    return std::find(x.requirements.begin(), x.requirements.end(), requirement) != x.requirements.end();
  });
}
json meta(json caps = json::object()) {
  return {{"io.modelcontextprotocol/protocolVersion", kModern}, {"io.modelcontextprotocol/clientCapabilities", caps}};
}
json request(json id, const std::string& method, json params = json::object()) {
  if (!params.contains("_meta")) params["_meta"] = meta();
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}
json result(json id, json r) { return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"result", std::move(r)}}; }
json tagged(const std::string& method, json id) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", {{"_meta", {{"io.modelcontextprotocol/subscriptionId", id}}}}}};
}
json list_result() {
  return {{"resultType", "complete"}, {"tools", json::array()}, {"ttlMs", 1000}, {"cacheScope", "public"}};
}

}  // namespace

TEST_CASE("modern monitor: a result without resultType fails RT-01, only at a modern version", "[monitor][modern]") {
  auto m = make();
  out(m, request(1, "tools/call", {{"name", "x"}}));
  CHECK(has(in(m, result(1, {{"content", json::array()}})), "RT-01"));
  auto legacy = make();
  out(legacy, request(2, "tools/call", {{"name", "x"}}));
  CHECK_FALSE(has(in(legacy, result(2, {{"content", json::array()}}), "2025-11-25"), "RT-01"));
  out(m, request(3, "tools/call", {{"name", "x"}}));
  CHECK(in(m, result(3, {{"resultType", "complete"}, {"content", json::array()}})).empty());
  out(m, request(4, "tools/call", {{"name", "x"}}));
  CHECK(has(in(m, result(4, {{"resultType", "done"}, {"content", json::array()}})), "RT-01"));
}

TEST_CASE("modern monitor: input_required only where allowed, with requests or state, asking only for what was declared",
          "[monitor][modern]") {
  auto m = make();
  const json ask = {{"resultType", "input_required"},
                    {"inputRequests", {{"q", {{"method", "elicitation/create"}, {"params", {{"message", "ok?"}, {"requestedSchema", {{"type", "object"}, {"properties", json::object()}}}}}}}}},
                    {"requestState", "s"}};
  out(m, request(1, "tools/list"));
  CHECK(has(in(m, result(1, ask)), "MRTR-02"));
  out(m, request(2, "tools/call", {{"name", "x"}, {"_meta", meta({{"elicitation", json::object()}})}}));
  CHECK(in(m, result(2, ask)).empty());
  out(m, request(3, "tools/call", {{"name", "x"}}));
  CHECK(has(in(m, result(3, ask)), "MRTR-05"));  // no elicitation declared on request 3
  out(m, request(4, "prompts/get", {{"name", "x"}}));
  CHECK(has(in(m, result(4, {{"resultType", "input_required"}})), "MRTR-03"));
  json extra = ask;
  extra["inputRequests"]["q"]["id"] = 7;
  out(m, request(5, "resources/read", {{"uri", "a:b"}, {"_meta", meta({{"elicitation", json::object()}})}}));
  CHECK(has(in(m, result(5, extra)), "MRTR-04"));
}

namespace {

// The findings for one input_required answer to a tools/call that declared `caps`, asking `ask`.
Findings asked(const json& caps, const std::string& method, const json& params) {
  auto m = make();
  out(m, request(1, "tools/call", {{"name", "x"}, {"_meta", meta(caps)}}));
  const json r = {{"resultType", "input_required"}, {"inputRequests", {{"q", {{"method", method}, {"params", params}}}}}};
  return in(m, result(1, r));
}

json form(json properties) {
  return {{"message", "Fill in"}, {"requestedSchema", {{"type", "object"}, {"properties", std::move(properties)}}}};
}

}  // namespace

TEST_CASE("modern monitor: elicitation input requests (ELI-03, ELI-04, ELI-06, ELI-07)", "[monitor][modern]") {
  const json form_only = {{"elicitation", json::object()}}, both = {{"elicitation", {{"form", json::object()}, {"url", json::object()}}}};
  const json fields = {{"name", {{"type", "string"}, {"format", "email"}}}, {"n", {{"type", "integer"}}},
                       {"colours", {{"type", "array"}, {"items", {{"type", "string"}, {"enum", {"red", "blue"}}}}}}};
  CHECK(asked(form_only, "elicitation/create", form(fields)).empty());
  json no_message = form(fields);
  no_message.erase("message");
  CHECK(has(asked(form_only, "elicitation/create", no_message), "ELI-04"));
  CHECK(has(asked(form_only, "elicitation/create", form({{"address", {{"type", "object"}}}})), "ELI-06"));
  CHECK(has(asked(form_only, "elicitation/create", form({{"when", {{"type", "string"}, {"format", "time"}}}})), "ELI-06"));
  CHECK(has(asked(form_only, "elicitation/create", form({{"n", {{"type", "integer"}, {"minimum", "zero"}}}})), "JSD-05"));
  const json url = {{"mode", "url"}, {"message", "Sign in"}, {"url", "https://example.com/auth"}};
  CHECK(has(asked(form_only, "elicitation/create", url), "ELI-03"));  // "elicitation": {} is form only
  CHECK(has(asked({{"elicitation", {{"url", json::object()}}}}, "elicitation/create", form(fields)), "ELI-03"));
  CHECK(asked(both, "elicitation/create", url).empty());
  json with_id = url;
  with_id["elicitationId"] = "e1";
  CHECK(has(asked(both, "elicitation/create", with_id), "ELI-07"));
  json bad_url = url;
  bad_url["url"] = "not a url";
  CHECK(has(asked(both, "elicitation/create", bad_url), "ELI-07"));
}

TEST_CASE("modern monitor: sampling input requests (SMP-04, SMP-06, SMP-07..10, SMP-19)", "[monitor][modern]") {
  const json plain = {{"sampling", json::object()}}, tools = {{"sampling", {{"tools", json::object()}}}};
  auto text = [](const std::string& role) { return json{{"role", role}, {"content", {{"type", "text"}, {"text", "hi"}}}}; };
  const json use = {{"role", "assistant"}, {"content", {{{"type", "tool_use"}, {"id", "u1"}, {"name", "f"}, {"input", json::object()}}}}};
  auto answer = [](const std::string& id) {
    return json{{"role", "user"}, {"content", {{{"type", "tool_result"}, {"toolUseId", id}, {"content", json::array()}}}}};
  };
  auto params = [](json messages) { return json{{"messages", std::move(messages)}, {"maxTokens", 100}}; };
  const json loop = params({text("user"), use, answer("u1")});
  CHECK(asked(plain, "sampling/createMessage", params({text("user")})).empty());
  json offered = loop;
  offered["tools"] = json::array({{{"name", "f"}, {"inputSchema", {{"type", "object"}}}}});
  CHECK(asked(tools, "sampling/createMessage", offered).empty());
  CHECK(has(asked(plain, "sampling/createMessage", offered), "SMP-04"));
  json context = params({text("user")});
  context["includeContext"] = "allServers";
  CHECK(has(asked(plain, "sampling/createMessage", context), "SMP-06"));
  CHECK(has(asked(tools, "sampling/createMessage", params({text("system")})), "SMP-19"));
  json mixed = answer("u1");
  mixed["content"].push_back({{"type", "text"}, {"text", "and more"}});
  CHECK(has(asked(tools, "sampling/createMessage", params({text("user"), use, mixed})), "SMP-07"));
  CHECK(has(asked(tools, "sampling/createMessage", params({text("user"), use, text("user")})), "SMP-08"));
  CHECK(has(asked(tools, "sampling/createMessage", params({text("user"), use})), "SMP-08"));
  CHECK(has(asked(tools, "sampling/createMessage", params({text("user"), use, answer("u2")})), "SMP-09"));
  CHECK(has(asked(tools, "sampling/createMessage", params({text("user"), answer("u0")})), "SMP-10"));
}

TEST_CASE("modern monitor: tool schemas are valid 2020-12 with an object root (JSD-05)", "[monitor][modern]") {
  auto listed = [](json tool) {
    auto m = make();
    out(m, request(1, "tools/list"));
    json r = list_result();
    r["tools"] = json::array({std::move(tool)});
    return in(m, result(1, r));
  };
  const json input = {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}, {"required", {"a"}},
                      {"$defs", {{"d", {{"oneOf", {{{"type", "integer"}}, {{"const", 1}}}}}}}}};
  CHECK(listed({{"name", "t"}, {"inputSchema", input}, {"outputSchema", {{"type", "array"}}}}).empty());
  CHECK(has(listed({{"name", "t"}, {"inputSchema", {{"type", "array"}}}}), "JSD-05"));
  CHECK(has(listed({{"name", "t"}, {"inputSchema", {{"type", "object"}, {"required", "a"}}}}), "JSD-05"));
  CHECK(has(listed({{"name", "t"}, {"inputSchema", input}, {"outputSchema", {{"type", "list"}}}}), "JSD-05"));
  CHECK(has(listed({{"name", "t"}, {"inputSchema", {{"type", "object"}, {"anyOf", json::array()}}}}), "JSD-05"));
  // A schema naming another dialect is not judged (mcpspec describes only 2020-12).
  const json draft7 = {{"$schema", "http://json-schema.org/draft-07/schema#"}, {"type", "object"}, {"minProperties", -1}};
  CHECK(listed({{"name", "t"}, {"inputSchema", draft7}}).empty());
}

TEST_CASE("modern monitor: caching hints on complete list, read and discover results", "[monitor][modern]") {
  auto m = make();
  out(m, request(1, "tools/list"));
  CHECK(in(m, result(1, list_result())).empty());
  json bad = list_result();
  bad["ttlMs"] = -1;
  out(m, request(2, "tools/list"));
  CHECK(has(in(m, result(2, bad)), "CACHE-02"));
  bad = list_result();
  bad.erase("cacheScope");
  out(m, request(3, "tools/list"));
  CHECK(has(in(m, result(3, bad)), "CACHE-01"));
  out(m, request(4, "server/discover"));
  const json discover = {{"resultType", "complete"}, {"supportedVersions", {kModern}}, {"capabilities", json::object()},
                         {"ttlMs", 0}, {"cacheScope", "private"}};
  CHECK(has(in(m, result(4, discover)), "DISC-04"));
  json named = discover;
  named["_meta"]["io.modelcontextprotocol/serverInfo"] = {{"name", "s"}, {"version", "1"}};
  out(m, request(5, "server/discover"));
  CHECK(in(m, result(5, named)).empty());
}

TEST_CASE("modern monitor: retired and undefined error codes, server requests", "[monitor][modern]") {
  auto m = make();
  out(m, request(1, "resources/read", {{"uri", "a:b"}}));
  CHECK(has(in(m, {{"jsonrpc", "2.0"}, {"id", 1}, {"error", {{"code", -32002}, {"message", "gone"}}}}), "ERR-04"));
  out(m, request(2, "tools/list"));
  CHECK(has(in(m, {{"jsonrpc", "2.0"}, {"id", 2}, {"error", {{"code", -32050}, {"message", "x"}}}}), "ERR-03"));
  out(m, request(3, "tools/list"));
  CHECK(in(m, {{"jsonrpc", "2.0"}, {"id", 3}, {"error", {{"code", -32022}, {"message", "x"}}}}).empty());
  CHECK(has(in(m, {{"jsonrpc", "2.0"}, {"id", "s1"}, {"method", "roots/list"}}), "BASE-23"));
}

TEST_CASE("modern monitor: listen streams are tagged, acknowledged first, only of the kinds asked for", "[monitor][modern]") {
  auto m = make();
  CHECK(has(in(m, {{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}}), "SUB-05"));
  CHECK(has(in(m, tagged("notifications/tools/list_changed", "nobody")), "SUB-05"));
  out(m, request("L", "subscriptions/listen", {{"notifications", {{"toolsListChanged", true}}}}));
  CHECK(has(in(m, tagged("notifications/tools/list_changed", "L")), "SUB-02"));  // before the acknowledgment
  CHECK(in(m, tagged("notifications/subscriptions/acknowledged", "L")).empty());
  CHECK(in(m, tagged("notifications/tools/list_changed", "L")).empty());
  CHECK(has(in(m, tagged("notifications/prompts/list_changed", "L")), "SUB-01"));  // not asked for
}

TEST_CASE("modern monitor: a client under test is not judged by the server rules", "[monitor][modern]") {
  auto m = make(Sender::Client);
  auto found = in(m, {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}, {"params", {{"_meta", meta()}}}});
  CHECK(std::none_of(found.begin(), found.end(), [](const Finding& f) { return f.monitor == "modern"; }));
}

TEST_CASE("modern monitor: server cancellations only end subscriptions, logs only when asked, none tagged as listen traffic",
          "[monitor][modern]") {
  auto m = make();
  const json cancel7 = {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 7}}}};
  out(m, request(7, "tools/call", {{"name", "x"}}));
  CHECK(has(in(m, cancel7), "CAN-10"));
  out(m, request("L", "subscriptions/listen", {{"notifications", {{"toolsListChanged", true}}}}));
  CHECK(in(m, {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "L"}}}}).empty());
  const json log = {{"jsonrpc", "2.0"}, {"method", "notifications/message"}, {"params", {{"level", "info"}, {"data", "x"}}}};
  CHECK(has(in(m, log), "META-06"));
  json asking = meta();
  asking["io.modelcontextprotocol/logLevel"] = "info";
  out(m, request(8, "tools/call", {{"name", "x"}, {"_meta", asking}}));
  CHECK_FALSE(has(in(m, log), "META-06"));
  json tagged_progress = tagged("notifications/progress", "L");
  tagged_progress["params"]["progressToken"] = "p";
  tagged_progress["params"]["progress"] = 1;
  CHECK(has(in(m, tagged_progress), "SUB-13"));
  CHECK(has(in(m, {{"jsonrpc", "2.0"}, {"id", "s2"}, {"method", "elicitation/create"}}), "MRTR-01"));
}

TEST_CASE("modern monitor: x-mcp-header annotations are linted on tools/list", "[monitor][modern]") {
  auto tools_with = [](json schema) {
    json r = list_result();
    r["tools"] = json::array({{{"name", "t"}, {"inputSchema", std::move(schema)}}});
    return r;
  };
  auto m = make();
  const json good = {{"type", "object"},
                     {"properties", {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                     {"n", {{"type", "object"}, {"properties", {{"k", {{"type", "integer"}, {"x-mcp-header", "K"}}}}}}}}}};
  out(m, request(1, "tools/list"));
  CHECK(in(m, result(1, tools_with(good))).empty());
  const json bad_type = {{"type", "object"}, {"properties", {{"x", {{"type", "number"}, {"x-mcp-header", "X"}}}}}};
  out(m, request(2, "tools/list"));
  CHECK(has(in(m, result(2, tools_with(bad_type))), "HDR-09"));
  const json in_items = {{"type", "object"},
                         {"properties", {{"a", {{"type", "array"}, {"items", {{"type", "string"}, {"x-mcp-header", "A"}}}}}}}};
  out(m, request(3, "tools/list"));
  CHECK(has(in(m, result(3, tools_with(in_items))), "HDR-09"));
  const json twice = {{"type", "object"},
                      {"properties", {{"a", {{"type", "string"}, {"x-mcp-header", "Dup"}}},
                                      {"b", {{"type", "string"}, {"x-mcp-header", "dup"}}}}}};
  out(m, request(4, "tools/list"));
  CHECK(has(in(m, result(4, tools_with(twice))), "HDR-09"));
  const json not_token = {{"type", "object"}, {"properties", {{"a", {{"type", "string"}, {"x-mcp-header", "a b"}}}}}};
  out(m, request(5, "tools/list"));
  CHECK(has(in(m, result(5, tools_with(not_token))), "HDR-09"));
}

TEST_CASE("modern monitor: _meta key names, W3C trace values, resultType task only with the tasks extension",
          "[monitor][modern]") {
  auto m = make();
  auto with_meta = [](json id, json meta_object) {
    return result(std::move(id), {{"resultType", "complete"}, {"content", json::array()}, {"_meta", std::move(meta_object)}});
  };
  out(m, request(1, "tools/call", {{"name", "x"}}));
  CHECK(in(m, with_meta(1, {{"com.example/trace-id", 1}, {"plain_name.v2", 2}})).empty());
  out(m, request(2, "tools/call", {{"name", "x"}}));
  CHECK(has(in(m, with_meta(2, {{"-bad", 1}})), "BASE-20"));
  out(m, request(3, "tools/call", {{"name", "x"}}));
  CHECK(has(in(m, with_meta(3, {{"1com.example/x", 1}})), "BASE-19"));
  out(m, request(4, "tools/call", {{"name", "x"}}));
  CHECK(has(in(m, with_meta(4, {{"traceparent", "not-a-traceparent"}})), "BASE-24"));
  out(m, request(5, "tools/call", {{"name", "x"}}));
  CHECK(in(m, with_meta(5, {{"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}})).empty());
  const json task = {{"resultType", "task"}, {"task", {{"taskId", "t"}}}};
  out(m, request(6, "tools/call", {{"name", "x"}}));
  CHECK(has(in(m, result(6, task)), "RT-04"));
  out(m, request(7, "tools/call",
                 {{"name", "x"}, {"_meta", meta({{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}})}}));
  CHECK_FALSE(has(in(m, result(7, task)), "RT-04"));
}
