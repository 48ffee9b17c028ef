#pragma once
// The MCP server lists users already have: Claude Code's `.mcp.json` and Claude Desktop's
// `claude_desktop_config.json` ({"mcpServers": {NAME: ...}}) and VS Code's `.vscode/mcp.json`
// ({"servers": {NAME: ...}}). Each entry is a stdio server (command, args, env) or a network one
// (type http or sse, url, headers). `mcpspec run --config FILE [--name NAME]` tests them.
#include "harness/transport/transport.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcpspec::cli {

struct ConfiguredServer {
  std::string name;
  std::string command;  // stdio: the command line for /bin/sh (env assignments, command, args, each quoted)
  std::string url;      // http / sse: the endpoint
  transport::TransportKind transport = transport::TransportKind::Stdio;
  std::vector<std::pair<std::string, std::string>> headers;  // http / sse: sent with every request
};

// Every server in the file, in file order. Throws UsageError naming the file and the JSON pointer
// of the problem: unreadable, not JSON, neither "mcpServers" nor "servers", an entry with neither
// "command" nor "url", a wrong type, an unsupported "type", a VS Code ${input:...} variable
// (only VS Code can prompt for it). ${env:NAME} and ${workspaceFolder} are replaced.
std::vector<ConfiguredServer> read_mcp_config(const std::string& path);

// The server called `name`; a UsageError listing the names in the file (and the nearest) if none.
ConfiguredServer configured_server(const std::vector<ConfiguredServer>& servers, const std::string& name,
                                   const std::string& path);

}  // namespace mcpspec::cli
