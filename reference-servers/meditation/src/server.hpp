// meditation-mcp's MCP surface: initialize, ping, resources (notes), tools (search, sync).
#pragma once

#include "mcpref/dispatcher.hpp"
#include "note_index.hpp"

#include <chrono>

namespace meditation {

inline constexpr const char* kServerName = "meditation-mcp";
inline constexpr const char* kServerVersion = "1.0";
inline constexpr const char* kProtocolVersion = "2024-11-05";

struct ServerConfig {
  std::chrono::milliseconds git_deadline{10000};
};

// Lists are never split into pages, so no cursor was ever issued: any cursor is refused with
// -32602 rather than ignored (ignoring it would hide the client's mistake).
void refuse_cursor(const mcpref::Json& params);

void register_resource_methods(mcpref::Dispatcher& dispatcher, NoteLibrary& library);
void register_tool_methods(mcpref::Dispatcher& dispatcher, NoteLibrary& library, const ServerConfig& config);
void register_methods(mcpref::Dispatcher& dispatcher, NoteLibrary& library, const ServerConfig& config);

}  // namespace meditation
