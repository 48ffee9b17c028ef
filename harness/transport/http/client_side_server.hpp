#pragma once
// The server end of a client-role run over a network transport: mcpspec listens on 127.0.0.1 and the
// client under test connects to it (docs/testing-clients.md, "Clients reached by URL"). Each
// implementation (Streamable HTTP, legacy HTTP+SSE, WebSocket) turns what the client sends into
// Frame events, carries what the scenario sends to the client, and writes `http: ...` lines for the
// wire log. HttpClientCarrier owns the client process and one of these.
#include "harness/transport/http/event_queue.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec::auth {
class ProtectedResource;
}

namespace mcpspec::transport::http {

// Per-scenario behaviour of the server end (the scenario's "transport_options").
struct ClientSideOptions {
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  // Streamable HTTP: how a POST carrying a request is answered when nothing but the response goes on
  // it: "json", "sse", or "alternate" (JSON, SSE, JSON, ... per request POST), so a client has to
  // handle both modes (HTTP-16).
  std::string response_mode = "alternate";
  // Streamable HTTP: every SSE answer to a POST sends one priming event (an id, `retry: retry_ms`,
  // empty data) and ends at once; whatever belongs to that stream is then only reachable by a GET
  // with Last-Event-ID (HTTP-20, HTTP-42). 0: off.
  int close_after_priming_retry_ms = 0;
  // Streamable HTTP: a POST in a modern protocol version (2026-07-28) is served statelessly; false
  // plays a legacy-only server, which knows no such POST: without a session id it gets 400 with a
  // -32600 body, as from any server of 2025-11-25 (the client's cue to fall back, VER-11).
  bool serve_modern = true;
  // `--auth` (Streamable HTTP only): the endpoint is an OAuth protected resource; every request
  // passes this gate first and it serves the resource metadata (docs/authorization.md). Owned by
  // the carrier; null: no authorization.
  auth::ProtectedResource* guard = nullptr;
  // TLS mode (Streamable HTTP, `run --tls`): PEM files the endpoint serves https with; empty: http.
  std::string tls_cert, tls_key;
};

class ClientSideServer {
 public:
  virtual ~ClientSideServer() = default;
  // Binds 127.0.0.1 on an ephemeral port and starts serving. Throws TransportError.
  virtual void start() = 0;
  // The URL the client is given for {url}.
  virtual std::string url() const = 0;
  // Carries one message from the scenario (the harness as server) to the client. Throws
  // TransportError when no client session exists to carry it.
  virtual void deliver(const std::string& text, Deadline deadline) = 0;
  // The server forgets the session abruptly (open streams are cut; its id is unknown afterwards).
  virtual void crash() = 0;
  // The server ends the session in an orderly way (open streams end cleanly; its id is unknown
  // afterwards).
  virtual void close() = 0;
  virtual bool session_open() const = 0;
  // How many sessions (connections) the client has opened so far.
  virtual int sessions() const = 0;
  // Every HTTP request the client made, oldest first (see docs/testing-clients.md for the fields).
  virtual nlohmann::json requests() const = 0;
  // Transport-level rules the client broke since the last call, taken once (see ClientCarrier).
  virtual nlohmann::json take_violations() { return nullptr; }
  // Stops listening and ends every connection; bounded; idempotent.
  virtual void stop() = 0;
};

}  // namespace mcpspec::transport::http
