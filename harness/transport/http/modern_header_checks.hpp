#pragma once
// The 2026-07-28 request headers of Streamable HTTP, checked against the body as a server must
// (HDR-01, HTTP-29, HTTP-PV-01, HTTP-PV-02): MCP-Protocol-Version equals params._meta's protocol
// version, Mcp-Method equals the method, and Mcp-Name equals the params member mcp_name_member()
// names (the tool or prompt, the resource URI, the task of tasks/get, tasks/update and tasks/cancel,
// XTASK-26). Header names compare without case (cpp-httplib does that),
// values with it (HDR-03). A value in the =?base64?...?= sentinel form is decoded first (HDR-02).
#include "harness/transport/http/modern_headers.hpp"

#include <nlohmann/json.hpp>

#include <functional>
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

// What is wrong with a tools/call POST's Mcp-Param-{Name} headers, given its tool's annotations
// (HDR-08: every annotated argument present and not null is mirrored; HDR-11: the value encoded as
// the string itself, or the =?base64?...?= sentinel when not plain ASCII, an integer in decimal, a
// boolean as true/false; param_header_text()). The annotations are learn_param_headers()'s, read at
// each one's exact property path, nested ones included.
std::vector<HeaderProblem> check_param_headers(const nlohmann::json& body, const std::vector<ParamHeader>& annotations,
                                               const std::function<std::string(const std::string&)>& header);

}  // namespace mcpspec::transport::http
