#include "harness/authcheck/mcp_post.hpp"

#include "harness/protocol/era.hpp"

namespace mcpspec::authcheck {

using nlohmann::json;

namespace {

// What a stateless (2026-07-28) request carries in params._meta instead of a handshake.
json modern_meta(const std::string& version) {
  return {{"io.modelcontextprotocol/protocolVersion", version},
          {"io.modelcontextprotocol/clientCapabilities", json::object()},
          {"io.modelcontextprotocol/clientInfo", {{"name", "mcpspec-auth"}, {"version", MCPSPEC_VERSION}}}};
}

}  // namespace

json initialize_body(const std::string& version, int id) {
  // The stateless era has no handshake: server/discover is the first request a client sends.
  if (protocol::is_modern(version))
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "server/discover"}, {"params", {{"_meta", modern_meta(version)}}}};
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", version},
            {"capabilities", json::object()},
            {"clientInfo", {{"name", "mcpspec-auth"}, {"version", MCPSPEC_VERSION}}}}}};
}

json request_body(const std::string& method, const json& params, int id) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

ProbeResponse McpPost::post(CheckResult& check, const json& body, const std::string& authorization,
                            const std::vector<std::pair<std::string, std::string>>& extra,
                            const std::string& query) const {
  ProbeRequest r;
  r.method = "POST";
  r.url = endpoint + (query.empty() ? "" : (endpoint.find('?') == std::string::npos ? "?" : "&") + query);
  r.content_type = "application/json";
  const bool modern = protocol::is_modern(version);
  json sent = body;
  if (modern && sent.contains("id") && sent.contains("method")) {
    if (!sent.contains("params") || !sent["params"].is_object()) sent["params"] = json::object();
    if (!sent["params"].contains("_meta")) sent["params"]["_meta"] = modern_meta(version);
  }
  r.body = sent.dump();
  r.headers.emplace_back("Accept", "application/json, text/event-stream");
  if (!session.empty()) r.headers.emplace_back("Mcp-Session-Id", session);
  // The header exists from 2025-06-18; before, the version travels only in initialize.
  if (version >= "2025-06-18" && body.value("method", "") != "initialize")
    r.headers.emplace_back("MCP-Protocol-Version", version);
  // 2026-07-28: the method (and a tool's name) travel in headers too.
  if (modern && sent.contains("id") && sent.contains("method")) {
    r.headers.emplace_back("Mcp-Method", sent["method"].get<std::string>());
    if (sent["method"] == "tools/call" && sent["params"].contains("name") && sent["params"]["name"].is_string())
      r.headers.emplace_back("Mcp-Name", sent["params"]["name"].get<std::string>());
  }
  if (!authorization.empty()) r.headers.emplace_back("Authorization", authorization);
  for (const auto& h : extra) r.headers.push_back(h);
  ProbeResponse resp = send_probe(r, timeout_ms);
  check.exchange(r, resp);
  return resp;
}

ProbeResponse McpPost::open(CheckResult& check, const std::string& authorization) {
  session.clear();
  ProbeResponse init = post(check, initialize_body(version, 1), authorization);
  if (!init.reached || init.status / 100 != 2) return init;
  session = init.header("mcp-session-id");
  if (!protocol::is_modern(version))
    post(check, json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, authorization);
  return init;
}

}  // namespace mcpspec::authcheck
