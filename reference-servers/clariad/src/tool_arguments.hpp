#pragma once
// Checks a tool's arguments against its ToolSpec. Every refusal names the tool, the parameter
// and the JSON Pointer of the offending value, so a client can fix its call without guessing.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "json_types.hpp"
#include "tool_catalog.hpp"

namespace clariad {

class ToolArguments {
 public:
  void set_text(std::string_view name, std::string value);
  void set_number(std::string_view name, double value);

  // Empty optional when the (optional) parameter was not given.
  std::optional<std::string> text(std::string_view name) const;
  std::optional<double> number(std::string_view name) const;

 private:
  std::map<std::string, std::string, std::less<>> texts_;
  std::map<std::string, double, std::less<>> numbers_;
};

// args: the "parameters" (legacy) or "arguments" (MCP) value; null counts as {}.
// pointer_base: where args sit in the request, e.g. "/params/parameters".
// Throws RpcError(InvalidParams) on the first problem found.
ToolArguments check_arguments(const ToolSpec& tool, const Json& args, const std::string& pointer_base);

// JSON Pointer escaping of one reference token (RFC 6901).
std::string pointer_token(std::string_view key);

}  // namespace clariad
