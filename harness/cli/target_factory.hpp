#pragma once
// The one place targets are built, for `mcpspec run` and `mcpspec fuzz` alike, typed per role: a
// server under test is reached through a Transport (stdio, or Streamable HTTP, legacy HTTP+SSE or
// WebSocket, started by us or already running), a client under test through a ClientCarrier (the
// bridge's Unix socket for stdio clients, a server end on 127.0.0.1 for HTTP and WebSocket ones).
// Every mistake in the options is a UsageError naming the option.
#include "harness/scenario/runner.hpp"

#include <string>

namespace mcpspec::cli {

struct TargetOptions {
  std::string server;     // command that starts the server (stdio, or with port_env for HTTP)
  std::string url;        // endpoint URL; with `server` only its path (and scheme) are used
  std::string transport;  // stdio | http | sse | ws; empty: stdio, or from the URL's scheme
  std::string port_env = "PORT";
  std::string origin;     // sent as Origin when not empty
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  int startup_timeout_ms = 20000;
  int stop_grace_ms = 500;    // stdio: wait after closing stdin, and again after SIGTERM
  bool keep_session = false;  // Streamable HTTP: a later initialize does not move to a new session
};

// A server under test.
scenario::TargetSpec server_target(const TargetOptions& o);

// A client under test: `command` has {server} (stdio) or {url} (http, sse, ws); `bridge_program`
// is the mcpspec binary the stdio client starts as its server.
scenario::CarrierSpec client_carrier(const std::string& command, const std::string& transport,
                                     const std::string& bridge_program, std::size_t max_message_bytes);

}  // namespace mcpspec::cli
