#pragma once
// The one place targets are built, for `mcpspec run` and `mcpspec fuzz` alike, typed per role: a
// server under test is reached through a Transport (stdio, or Streamable HTTP, legacy HTTP+SSE or
// WebSocket, started by us or already running), a client under test through a ClientCarrier (the
// bridge's Unix socket for stdio clients, a server end on 127.0.0.1 for HTTP and WebSocket ones).
// Every mistake in the options is a UsageError naming the option.
#include "harness/scenario/runner.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace mcpspec::cli {

struct TargetOptions {
  std::string server;     // command that starts the server (stdio, or with port_env for HTTP)
  std::string url;        // endpoint URL; with `server` only its path (and scheme) are used
  std::optional<transport::TransportKind> transport;  // unset: stdio, or from the URL's scheme
  std::string port_env = "PORT";
  std::string origin;     // sent as Origin when not empty
  std::vector<std::pair<std::string, std::string>> headers;  // network transports: sent with every request
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  int startup_timeout_ms = 20000;
  int stop_grace_ms = 500;    // stdio: wait after closing stdin, and again after SIGTERM
  bool keep_session = false;  // Streamable HTTP: a later initialize does not move to a new session
};

// A server under test.
scenario::TargetSpec server_target(const TargetOptions& o);

// A client under test: `command` has {server} (stdio) or {url} (http, sse, ws); `bridge_program`
// is the mcpspec binary the stdio client starts as its server.
// `tls` (with auth): https with a throwaway CA (docs/authorization.md, "TLS mode").
scenario::CarrierSpec client_carrier(const std::string& command, std::optional<transport::TransportKind> transport, bool auth,
                                     const std::string& bridge_program, std::size_t max_message_bytes, bool tls = false);

// The start-up probe of run and fuzz (scenario/preflight.hpp): false, after printing its one line
// "mcpspec: ..." on stderr, when the target cannot be started or reached (the caller exits 2).
bool target_starts(const scenario::RunConfig& config);

// The options run and fuzz share, parsed once into their types: --transport NAME (stdio, http,
// sse, ws) and --call-tools (none, readonly, all).
CLI::Option* add_transport_option(CLI::App* cmd, std::optional<transport::TransportKind>& into, const std::string& help);
CLI::Option* add_call_tools_option(CLI::App* cmd, scenario::CallTools& into, const std::string& help);

}  // namespace mcpspec::cli
