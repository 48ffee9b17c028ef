#pragma once
// A client carrier: how the harness reaches a client under test while it plays the MCP server (the
// client is the target; the carrier is the wire to it). Every way of reaching a client (a Unix
// socket behind `mcpspec bridge`; a server end on 127.0.0.1 for HTTP and WebSocket clients)
// implements this on top of the ordinary Transport, so the client-role runner never knows which
// carrier is used:
//   send/receive    messages to and from the client (Frame events), the client's stderr/stdout and
//                   the bridge's log (Stderr events), Closed when the server connection ends,
//                   Exited when the client process ends
//   close_input     the "server" closes its side cleanly (a server that exits)
//   signal/stop     the client's process group
#include "harness/transport/transport.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::transport {

class ClientCarrier : public Transport {
 public:
  // The server side dies abruptly (the process the client spawned is killed), so the client sees a
  // crashed server rather than an orderly exit.
  virtual void crash_server() = 0;
  // True while a server connection from the client is open.
  virtual bool connected() const = 0;
  // How many times the client has started the server (connections accepted so far).
  virtual int connections() const = 0;
  // Network carriers: every HTTP request the client made (docs/testing-clients.md); null elsewhere.
  virtual nlohmann::json http_requests() const { return nullptr; }
  // `--auth` over Streamable HTTP: {"issuer", "resource", "requests": the log of the endpoint and
  // the mock authorization server, "facts": what it shows} (docs/authorization.md); null elsewhere.
  virtual nlohmann::json auth_state() const { return nullptr; }
  // Before start(): the modern protocol versions the harness serves (the scenario's serve_versions).
  // Empty plays a legacy-only server: over Streamable HTTP a modern POST then meets the legacy
  // session rules (400 without a session id) instead of being served statelessly. Stdio leaves
  // this to the session, which sees every message.
  virtual void serve_versions(const std::vector<std::string>& /*versions*/) {}
};

}  // namespace mcpspec::transport
