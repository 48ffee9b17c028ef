#pragma once
// Builds the target of `mcpspec run` for the network transports (--url, --transport, --port-env):
// Streamable HTTP, legacy HTTP+SSE and (when built) WebSocket. stdio targets are built in
// run_command.cpp.
#include "harness/scenario/runner.hpp"

#include <string>

namespace mcpspec::cli {

struct NetworkTargetOptions {
  std::string server;     // command to start (with port_env), or empty to use `url` as running
  std::string url;        // endpoint URL; with `server` only its path (and scheme) are used
  std::string transport;  // http | sse | ws; empty: from the URL's scheme
  std::string port_env = "PORT";
  std::string origin;     // sent as Origin when not empty
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  int startup_timeout_ms = 20000;
  bool keep_session = false;  // Streamable HTTP: a later initialize does not move to a new session
};

// True when these options ask for a network transport rather than stdio.
bool wants_network_target(const std::string& url, const std::string& transport);
// Throws UsageError naming the offending option.
scenario::TargetSpec network_target(const NetworkTargetOptions& o);

}  // namespace mcpspec::cli
