#pragma once
// The 2026-07-28 request headers of Streamable HTTP, checked against the body as a server must
// (HDR-01, HTTP-29, HTTP-PV-01, HTTP-PV-02): MCP-Protocol-Version equals params._meta's protocol
// version, Mcp-Method equals the method, and Mcp-Name equals params.name (tools/call, prompts/get)
// or params.uri (resources/read). Header names compare without case (cpp-httplib does that),
// values with it (HDR-03). A value in the =?base64?...?= sentinel form is decoded first (HDR-02).
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcpspec::transport::http {

struct HeaderProblem {
  std::vector<std::string> requirements;
  std::string text;
};

// The modern protocol version a POST is in: its body's params._meta version, else its
// MCP-Protocol-Version header, when that is modern; nullopt for a legacy POST.
std::optional<std::string> modern_post_version(const nlohmann::json& body, const std::string& version_header);

// What is wrong with a modern POST's headers (`header` reads one by name; "" when absent).
std::vector<HeaderProblem> check_modern_headers(const nlohmann::json& body,
                                                const std::function<std::string(const char*)>& header);

// The x-mcp-header annotations of the tools in a tools/list result: tool name -> {argument
// name: header suffix} (top-level inputSchema properties; tools without any are left out).
std::map<std::string, std::map<std::string, std::string>> x_mcp_headers_of(const nlohmann::json& list_result);

// What is wrong with a tools/call POST's Mcp-Param-{Name} headers, given its tool's annotations
// (HDR-08: every annotated argument present and not null is mirrored; HDR-11: the value encoded as
// the string itself, or the =?base64?...?= sentinel when not plain ASCII, an integer in decimal, a
// boolean as true/false). Integers compare numerically.
std::vector<HeaderProblem> check_param_headers(const nlohmann::json& body,
                                               const std::map<std::string, std::string>& annotations,
                                               const std::function<std::string(const std::string&)>& header);

}  // namespace mcpspec::transport::http
