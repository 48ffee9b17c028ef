#pragma once
// The HTTP front's side of the 2026-07-28 header rules: a server that reads the body checks the
// standard request headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and the Mcp-Param-{Name}
// headers of x-mcp-header tool arguments against it, and refuses a mismatch with 400 and -32020.
// Written apart from the harness's header code on purpose: the test front must not share the code
// it is there to test.
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace httpfront {

// One x-mcp-header argument of a tool: where the value sits under `arguments` (a chain of
// `properties` names) and the header name suffix.
struct ParamHeader {
  std::vector<std::string> path;
  std::string header;
};
using ToolHeaders = std::map<std::string, std::vector<ParamHeader>>;

// Adds the x-mcp-header arguments of every tool in a tools/list result.
void learn_tool_headers(const nlohmann::json& list_result, ToolHeaders& into);

// True when the body is a 2026-07-28 message: params._meta names the modern version or client
// capabilities, or the MCP-Protocol-Version header names a version after the legacy ones.
bool is_modern_message(const nlohmann::json& body, const std::string& version_header);

// The checks a fault can switch off, one per rule family.
struct HeaderChecks {
  bool version = true;  // MCP-Protocol-Version present and equal to _meta's (HTTP-PV-02, HDR-04)
  bool method = true;   // Mcp-Method present and equal to the method (HDR-04)
  bool name = true;     // Mcp-Name present and equal to params.name / params.uri (HDR-04)
  bool params = true;   // Mcp-Param-* equal to the x-mcp-header arguments (HDR-12)
  bool decode = true;   // sentinel values decoded before comparing (HDR-05)
};

// Reads a request header by name (case-insensitive lookup is the HTTP library's).
using HeaderLookup = std::function<std::optional<std::string>(const std::string& name)>;

// What is wrong with the headers of a modern request, or nothing. `tool` holds the x-mcp-header
// arguments of the tool a tools/call names (empty when it has none or is unknown).
std::optional<std::string> header_mismatch(const nlohmann::json& body, const HeaderLookup& header,
                                           const std::vector<ParamHeader>& tool, const HeaderChecks& checks);

}  // namespace httpfront
