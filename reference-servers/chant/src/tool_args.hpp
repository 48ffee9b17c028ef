// Typed access to a tools/call `arguments` object with the documented error texts.
#pragma once

#include "mcpref/json.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace chant {

// Every accessor treats a null value as absent and throws ToolError on a wrong type:
//   "Missing required parameter: <name>"
//   "Invalid parameter '<name>': expected <type>, got <type>"
class ToolArgs {
 public:
  explicit ToolArgs(const mcpref::Json& arguments) : args_(arguments) {}

  std::string required_string(const char* name) const;
  std::optional<std::string> optional_string(const char* name) const;
  bool optional_bool(const char* name, bool fallback) const;
  // Non-negative integer (a float with an integral value is accepted, as JSON Schema does).
  std::size_t optional_count(const char* name, std::size_t fallback) const;

 private:
  const mcpref::Json* find(const char* name) const;
  const mcpref::Json& args_;
};

}  // namespace chant
