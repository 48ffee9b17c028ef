// An MCP Streamable HTTP server end for a Dispatcher, on cpp-httplib: POST carries JSON-RPC
// (answered as application/json, one body per POST), initialize opens a session named by the
// Mcp-Session-Id header, DELETE ends it, GET is 405 (no server-initiated stream: the reference
// servers never send requests or notifications of their own).
#pragma once

#include "mcpref/dispatcher.hpp"
#include "mcpref/network_options.hpp"

#include <memory>

namespace mcpref {

class HttpServer {
 public:
  HttpServer(Dispatcher& dispatcher, NetworkOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and serves until stop(). Throws std::runtime_error naming host and port when the
  // socket cannot be bound.
  void run();
  // Safe from any thread (a signal-waiting thread); run() then returns.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcpref
