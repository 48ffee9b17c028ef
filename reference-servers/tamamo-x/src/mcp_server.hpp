// The MCP server face of tamamo-x-mcp: initialize (tools capability, listChanged false as the
// document says), ping, tools/list (the sub-agents), tools/call (routed by SubAgents).
#pragma once

#include "sub_agents.hpp"

#include "mcpref/dispatcher.hpp"

#include <string>
#include <vector>

namespace tamamo {

// Versions we answer: the one a client proposes when it is among these (the document's
// 2024-11-05 included; nothing tamamo does differs between them), else the first, our latest.
const std::vector<std::string>& supported_protocol_versions();

void register_mcp_methods(mcpref::Dispatcher& dispatcher, const SubAgents& agents);

}  // namespace tamamo
