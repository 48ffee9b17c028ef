// Serving a Dispatcher over any of the three MCP transports with one call, so every reference
// server offers stdio, Streamable HTTP and WebSocket the same way.
#pragma once

#include "mcpref/dispatcher.hpp"
#include "mcpref/network_options.hpp"

#include <optional>
#include <string>

namespace mcpref {

enum class Transport { Stdio, Http, WebSocket };

// "stdio", "http" (also "streamable-http") or "websocket" (also "ws"); nullopt otherwise.
std::optional<Transport> parse_transport(const std::string& name);

struct ServeOptions {
  Transport transport = Transport::Stdio;
  NetworkOptions network;  // for Http and WebSocket
};

// Serves until end of input (stdio) or until SIGINT/SIGTERM/SIGHUP (network transports, which
// then stop listening, close their connections and return 0). Returns the process exit status:
// 0 on an orderly end, 1 on an I/O failure or when the port cannot be bound (after printing the
// reason to stderr).
int serve(Dispatcher& dispatcher, const ServeOptions& options);

}  // namespace mcpref
