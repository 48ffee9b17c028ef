#pragma once
// Reading the capabilities a side declared (its initialize request or answer).
#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec::protocol {

// Dotted capability path ("resources.subscribe") declared: present and neither false nor null. A
// key holding dots is matched whole as the rest of a path ("extensions.io.modelcontextprotocol/tasks").
bool capability_declared(const nlohmann::json& caps, const std::string& path);

}  // namespace mcpspec::protocol
