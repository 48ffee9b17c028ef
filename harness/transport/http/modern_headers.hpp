#pragma once
// The request headers a POST carries at a modern protocol version (2026-07-28 and later), read off
// the message itself: MCP-Protocol-Version (the version in params._meta), Mcp-Method, Mcp-Name
// (the tool or prompt name, the resource URI, a task id) and one Mcp-Param-{Name} for each tool
// argument the tool's inputSchema marks with x-mcp-header. A legacy message gets none of them: its
// version header follows the initialize answer instead (streamable_http_transport.cpp).
#include "harness/transport/http/http_connection.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcpspec::transport::http {

// A header value as the spec carries it: plain when it is visible ASCII (spaces and tabs inside
// allowed), else (non-ASCII, control characters, leading or trailing white space, or text that
// itself looks like the sentinel) "=?base64?{Base64 of the UTF-8}?=".
std::string encoded_header_value(const std::string& value);
// The value a received header stands for: the sentinel's payload decoded, any other value as it
// is; nullopt when the sentinel holds no valid base64 (the server end's HDR-02 check).
std::optional<std::string> decoded_header_value(const std::string& value);

// The x-mcp-header annotations of one tool: the property path of each annotated argument (a chain
// of "properties" keys) and the header name part.
struct ParamHeader {
  std::vector<std::string> path;
  std::string name;
};
using ToolParamHeaders = std::map<std::string, std::vector<ParamHeader>>;  // tool name -> its headers

// Adds the annotations of every tool in a tools/list result to `into`. Only annotations reachable
// through "properties" chains count (anywhere else the spec makes the tool invalid, which the
// harness does not mirror: it tests the server, whose invalid annotations are for a check to see).
void learn_param_headers(const nlohmann::json& tools_list_result, ToolParamHeaders& into);

// The modern headers of `message`: its _meta version names the era. `connection_version` is the
// version of the modern requests sent before on this connection ("" if none): a message that names
// no version itself (no _meta, params not an object, a notification) is sent with that one, and one
// that names an unknown version is sent with it as written. Nothing for a legacy message.
Headers modern_request_headers(const nlohmann::json& message, const ToolParamHeaders& tools,
                               const std::string& connection_version = "");

}  // namespace mcpspec::transport::http
