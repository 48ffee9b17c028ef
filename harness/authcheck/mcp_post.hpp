#pragma once
// The MCP requests the authorization checks send: JSON-RPC bodies POSTed to the endpoint with or
// without a bearer token, and the small session (initialize, initialized, then requests carrying
// Mcp-Session-Id and MCP-Protocol-Version) that token mode needs. At a stateless version
// (2026-07-28) the first request is server/discover, and every request carries params._meta,
// Mcp-Method and (tools/call) Mcp-Name.
#include "harness/authcheck/check_result.hpp"
#include "harness/authcheck/http_probe.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace mcpspec::authcheck {

// initialize, or server/discover at a stateless version.
nlohmann::json initialize_body(const std::string& version, int id);
nlohmann::json request_body(const std::string& method, const nlohmann::json& params, int id);

struct McpPost {
  std::string endpoint;
  std::string version;
  int timeout_ms = 5000;
  std::string session;  // Mcp-Session-Id once a server issued one

  // POSTs `body`; `authorization` is the whole header value ("Bearer x"), none when empty.
  // Extra headers go last (a second Authorization field, for the malformed-header check).
  ProbeResponse post(CheckResult& check, const nlohmann::json& body, const std::string& authorization,
                     const std::vector<std::pair<std::string, std::string>>& extra = {},
                     const std::string& query = "") const;
  // initialize, then notifications/initialized; keeps the session id. Returns the initialize answer.
  ProbeResponse open(CheckResult& check, const std::string& authorization);
};

}  // namespace mcpspec::authcheck
