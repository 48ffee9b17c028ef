#pragma once
// The bridge process (`mcpspec bridge SOCKET`): a client under test spawns it as if it were a stdio
// MCP server. It connects to the Unix socket the harness listens on and copies bytes both ways, so
// every scenario decision stays in the harness process. What happens to the bridge itself (the
// client closed its stdin, a signal, an error) is appended to a log file next to the socket that
// the harness reads back into the wire log.
#include <string>

namespace mcpspec::transport {

struct BridgeOptions {
  std::string socket_path;
  int connect_timeout_ms = 5000;  // bounded retries while the harness is not yet listening
};

// Runs the bridge until either side closes. Returns the process exit code: 0 when the client closed
// the bridge's stdin or the harness closed the connection; 1 on a runtime error; the message is on
// stderr (and in the log file).
int run_bridge(const BridgeOptions& options);

// Where the bridge writes its event log for a given socket path.
std::string bridge_log_path(const std::string& socket_path);

}  // namespace mcpspec::transport
