// MCP tools/call result shapes (text content, with or without isError).
#pragma once

#include "mcpref/json.hpp"

#include <string>

namespace mcpref {

Json text_content(const std::string& text);
// {"content":[{"type":"text","text":...}]}
Json tool_success(const std::string& text);
// Same, plus "isError": true — a failure the model can read, not a protocol error.
Json tool_failure(const std::string& text);

}  // namespace mcpref
