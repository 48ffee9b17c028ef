// Tool discovery (`build`): connect to every configured server as an MCP client, list its tools,
// and record per server either the tools or the reason it failed. Servers are queried in
// parallel, each within its own deadline, so one slow or broken server neither delays past its
// timeout nor hides the others.
#pragma once

#include "config.hpp"

#include <string>
#include <vector>

namespace tamamo {

struct DiscoveredTool {
  std::string server;
  std::string name;
  std::string description;
  mcpref::Json input_schema;
};

struct ServerDiscovery {
  std::string server;
  bool ok = false;
  std::string error;  // when !ok: what failed, in words
  mcpref::Json server_info;
  std::string protocol_version;
  std::vector<DiscoveredTool> tools;
  std::vector<std::string> warnings;  // tools skipped as malformed
};

// One entry per configured server, in configuration order.
std::vector<ServerDiscovery> discover(const Config& config);

// Validates one tools/list page's tools into `into` (public for the tests).
void collect_tools(const std::string& server, const mcpref::Json& tools, ServerDiscovery& into);

}  // namespace tamamo
