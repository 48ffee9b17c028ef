// `chant init`: create the .chant/ layout and, for the Claude agent, .mcp.json.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace chant {

// Exactly the .mcp.json the chant document shows (plus a final newline).
extern const char* const kClaudeMcpJson;

enum class AgentSetup { None, Claude };

// Creates what is missing and never removes or rewrites what exists: re-running init is safe
// and keeps every spec. An existing .mcp.json gains a "chant" server entry if it lacks one
// (other servers are kept); one that is not valid JSON is left alone and reported (ToolError).
// Returns one human-readable line per action.
std::vector<std::string> init_project(const std::filesystem::path& root, AgentSetup agent);

}  // namespace chant
