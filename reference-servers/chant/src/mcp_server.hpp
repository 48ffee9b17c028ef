// `chant mcp`: the MCP methods chant answers, wired onto the shared runtime's dispatcher.
#pragma once

#include "tools.hpp"

#include "mcpref/dispatcher.hpp"

namespace chant {

inline constexpr const char* kServerName = "chant";
inline constexpr const char* kServerVersion = "0.1.0";
// The chant document's protocol revision; the only one chant speaks, so it is also the answer
// to a client asking for any other.
inline constexpr const char* kProtocolVersion = "2024-11-05";

// initialize (params optional), ping, tools/list, tools/call; notifications/initialized and
// notifications/cancelled are accepted silently. Requests are served before initialize too,
// as the document's one-line shell examples expect.
void register_mcp_methods(mcpref::Dispatcher& dispatcher, const ToolContext& context);

int serve_mcp_stdio(const ToolContext& context);

}  // namespace chant
