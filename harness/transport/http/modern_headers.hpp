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

// Adds the annotations of every tool in a tools/list result to `into` (a tool listed again replaces
// what was known of it). Only annotations reachable through "properties" chains count: anywhere
// else the spec makes the tool invalid, and neither end of the harness mirrors or expects them.
// Both ends read annotations here, so the header a client must send and the one the harness sends
// as a client are the same by construction.
void learn_param_headers(const nlohmann::json& tools_list_result, ToolParamHeaders& into);

// The argument an annotation designates in a tools/call's `arguments` (the value at its exact
// property path), nullptr when nothing is there.
const nlohmann::json* annotated_argument(const nlohmann::json& arguments, const ParamHeader& annotation);

// The text a mirrored argument is encoded from: a string as it is, an integer in decimal (42.0 is
// the integer 42), a boolean as true/false; nullopt for any other value (not mirrored).
std::optional<std::string> param_header_text(const nlohmann::json& value);

// The params member Mcp-Name carries for `method`: "name" for tools/call and prompts/get, "uri" for
// resources/read, "taskId" for the tasks extension's tasks/get, tasks/update and tasks/cancel;
// nullptr for every other method (no Mcp-Name).
const char* mcp_name_member(const std::string& method);
// The value Mcp-Name must carry for a request (that member of `params`, when it is a string).
std::optional<std::string> mcp_name_source(const std::string& method, const nlohmann::json& params);

// The modern headers of `message`: its _meta version names the era. `connection_version` is the
// version of the modern requests sent before on this connection ("" if none): a message that names
// no version itself (no _meta, params not an object, a notification) is sent with that one, and one
// that names an unknown version is sent with it as written. Nothing for a legacy message.
Headers modern_request_headers(const nlohmann::json& message, const ToolParamHeaders& tools,
                               const std::string& connection_version = "");

}  // namespace mcpspec::transport::http
