// mcpspec-auth-testserver: a Streamable HTTP MCP server (initialize, tools/list, tools/call of two
// tools) behind an OAuth resource-server layer, with protected resource metadata and a small
// authorization server of its own, and --fault NAME for each family of authorization rules
// (faults.json). It shares no code with the harness: a harness bug cannot hide the same bug here.
#include "authorization_server.hpp"
#include "options.hpp"
#include "resource_layer.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <iostream>

using nlohmann::json;
using namespace authtest;

namespace {

json tool_list() {
  json read_only = {{"readOnlyHint", true}};
  return json::array(
      {{{"name", "echo"}, {"description", "Returns its text (scope mcp:read)."},
        {"inputSchema", {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}},
        {"annotations", read_only}},
       {{"name", "secret"}, {"description", "Returns a secret (scope mcp:admin)."},
        {"inputSchema", {{"type", "object"}}}, {"annotations", read_only}}});
}

json answer(const json& msg) {
  const std::string method = msg.value("method", "");
  const json id = msg.contains("id") ? msg["id"] : json();
  auto result = [&](json r) { return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(r)}}; };
  if (method == "initialize") {
    std::string v = msg.value("params", json::object()).value("protocolVersion", "2025-11-25");
    if (v != "2025-03-26" && v != "2025-06-18" && v != "2025-11-25") v = "2025-11-25";
    return result({{"protocolVersion", v},
                   {"capabilities", {{"tools", json::object()}}},
                   {"serverInfo", {{"name", "mcpspec-auth-testserver"}, {"version", "1.0.0"}}}});
  }
  // 2026-07-28 (stateless): discovery stands where the handshake stood.
  if (method == "server/discover")
    return result({{"supportedVersions", {"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}},
                   {"capabilities", {{"tools", json::object()}}},
                   {"serverInfo", {{"name", "mcpspec-auth-testserver"}, {"version", "1.0.0"}}}});
  if (method == "tools/list") return result({{"tools", tool_list()}});
  if (method == "tools/call") {
    const json params = msg.value("params", json::object());
    const std::string name = params.value("name", "");
    if (name == "echo" || name == "secret") {
      std::string text = name == "secret" ? "the secret" : params.value("arguments", json::object()).value("text", "");
      return result({{"content", json::array({{{"type", "text"}, {"text", text}}})}});
    }
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32602}, {"message", "unknown tool " + name}}}};
  }
  if (method == "ping") return result(json::object());
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32601}, {"message", "method not found"}}}};
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  Urls urls;
  urls.origin = "http://127.0.0.1:" + std::to_string(o.port);
  urls.resource = urls.origin + "/mcp";
  urls.prm = urls.origin + "/.well-known/oauth-protected-resource/mcp";

  httplib::Server server;
  server.Post("/mcp", [&](const httplib::Request& req, httplib::Response& res) {
    json msg = json::parse(req.body, nullptr, false);
    if (!msg.is_object() || !msg.contains("method") || !msg["method"].is_string()) {
      res.status = 400;
      res.set_content(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}})", "application/json");
      return;
    }
    const std::string method = msg["method"];
    const std::string tool = msg.value("params", json::object()).value("name", "");
    if (!authorize(req, res, needed_scope(method, tool), o, urls)) return;
    if (!msg.contains("id")) {
      res.status = 202;  // a notification
      return;
    }
    res.set_content(answer(msg).dump(), "application/json");
  });
  server.Get("/mcp", [](const httplib::Request&, httplib::Response& res) { res.status = 405; });
  server.Get("/.well-known/oauth-protected-resource/mcp", [&](const httplib::Request&, httplib::Response& res) {
    if (o.fault("prm-missing")) {
      res.status = 404;
      return;
    }
    json prm = {{"resource", o.fault("prm-wrong-resource") ? "https://other.example/mcp" : urls.resource},
                {"scopes_supported", {"mcp:read", "mcp:admin"}},
                {"bearer_methods_supported", {"header"}}};
    // A trusted issuer replaces the built-in AS (mock-AS mode: the harness's AS issues the tokens).
    if (!o.fault("prm-no-authorization-servers"))
      prm["authorization_servers"] = {o.trusted_issuer.empty() ? urls.origin : o.trusted_issuer};
    res.set_content(prm.dump(), "application/json");
  });
  add_authorization_server(server, o, urls);
  if (!server.listen("127.0.0.1", o.port)) {
    std::cerr << "mcpspec-auth-testserver: cannot listen on 127.0.0.1:" << o.port << "\n";
    return 1;
  }
  return 0;
}
