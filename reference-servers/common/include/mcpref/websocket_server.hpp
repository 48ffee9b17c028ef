// An MCP WebSocket server end for a Dispatcher, on Boost.Beast: one JSON-RPC message per text
// frame, each connection served on its own thread, the subprotocol "mcp" accepted when offered.
#pragma once

#include "mcpref/dispatcher.hpp"
#include "mcpref/network_options.hpp"

#include <memory>

namespace mcpref {

class WebSocketServer {
 public:
  WebSocketServer(Dispatcher& dispatcher, NetworkOptions options);
  ~WebSocketServer();
  WebSocketServer(const WebSocketServer&) = delete;
  WebSocketServer& operator=(const WebSocketServer&) = delete;

  // Binds and serves until stop(); throws std::runtime_error naming host and port on failure.
  void run();
  // Safe from any thread: stops accepting, shuts every open connection down, run() returns.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcpref
