#pragma once
// The three tools of the Clariad document with their parameters. Names, descriptions and
// parameter descriptions are the document's; the limits (lengths, duration range) are ours
// because the document gives none, and they are published in the schemas so clients see them.
#include <cstddef>
#include <string_view>
#include <vector>

#include "json_types.hpp"

namespace clariad {

inline constexpr std::size_t kMaxConversationIdChars = 128;
inline constexpr std::size_t kMaxNameChars = 200;
inline constexpr std::size_t kMaxDescriptionChars = 20000;
inline constexpr std::size_t kMaxRequirementsChars = 50000;
inline constexpr double kMinDurationSeconds = 0.0;
inline constexpr double kMaxDurationSeconds = 600.0;

struct ParamSpec {
  enum class Kind { String, Number };
  std::string_view name;
  Kind kind = Kind::String;
  bool required = false;
  std::string_view description;
  std::size_t max_chars = 0;  // strings
  bool single_line = false;   // strings: control characters are refused
  double minimum = 0;         // numbers
  double maximum = 0;         // numbers
};

struct ToolSpec {
  std::string_view name;
  std::string_view description;
  std::vector<ParamSpec> params;
};

const std::vector<ToolSpec>& tool_catalog();
const ToolSpec* find_tool(std::string_view name);

// JSON Schema of a tool's parameters: the legacy "parameters" member and, unchanged, the
// MCP "inputSchema".
OJson parameters_schema(const ToolSpec& tool);

// result of list_tools: {"tools": [{name, description, parameters}]}
OJson legacy_tool_list();

// result of MCP tools/list: {"tools": [{name, description, inputSchema, annotations?}]}
OJson mcp_tool_list(bool with_annotations);

}  // namespace clariad
