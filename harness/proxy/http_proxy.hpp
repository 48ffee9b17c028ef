#pragma once
// The HTTP proxy: `mcpspec proxy --listen HOST:PORT --upstream URL`. A host talks to the proxy as
// to the server; every request goes on to the upstream server with its method, path, query, headers
// and body, and every answer comes back with its status, headers and body; a text/event-stream
// answer (Streamable HTTP's POST and GET streams, the legacy HTTP+SSE stream) is passed on chunk by
// chunk as it arrives. The JSON-RPC messages in request bodies, JSON answers and SSE events are
// judged by a TrafficJudge per MCP session (told apart by Mcp-Session-Id), after they went on.
#include "harness/proxy/traffic_judge.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mcpspec::proxy {

// The text a message sent over HTTP is judged as. HTTP frames a body, not a line, so a JSON body
// with line breaks (pretty-printed) is legal: it is judged in its compact form; anything else as it
// came, with line breaks as spaces (one unreadable message either way). `validate --trace` judges a
// recorded HTTP message the same way.
std::string http_message_text(const std::string& body);

struct HttpProxyOptions {
  std::string listen_host = "127.0.0.1";
  int listen_port = 0;       // 0: any free port (start() says which)
  std::string upstream;      // http://host:port[/base path]; every request path is appended to the base
  std::string record_path;   // --record: the JSONL trace ("" = none)
  std::size_t max_judged_body = 16 * 1024 * 1024;  // larger bodies and events are forwarded, not judged
  std::size_t max_request_body = 64 * 1024 * 1024;  // a host's larger request is refused with 413
  int connect_timeout_ms = 10000;
  // How long an answer (or an SSE stream) may stay silent before the proxy gives up on it.
  int read_timeout_ms = 300000;
  int max_connections = 64;  // threads serving the host: a stream holds one for its whole life
  // Told each request refused before it went on (a foreign Host or Origin: 403; a head too large:
  // 431; too many connections: 503; see transport::http::listen_guarded), one line each.
  std::function<void(const std::string&)> on_refused;
};

class HttpProxy {
 public:
  // Throws std::invalid_argument for an upstream URL that is not http://host[:port][/path].
  HttpProxy(HttpProxyOptions options, std::function<void(const TrafficFinding&)> on_finding);
  ~HttpProxy();
  HttpProxy(const HttpProxy&) = delete;
  HttpProxy& operator=(const HttpProxy&) = delete;

  // Binds and starts serving; returns the port. Throws std::runtime_error naming the address or the
  // trace file that could not be had.
  int start();
  // Stops accepting, ends the open streams (their upstream requests too) and waits for the serving
  // threads. Safe to call twice.
  void stop();

  // One result per MCP session seen (in the order they began), for the reports.
  std::vector<ScenarioResult> results(const std::string& target, double duration_ms) const;
  // The version of the first session's rules (negotiated, else proposed, else the latest known).
  std::string version() const;
  bool any_must() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcpspec::proxy
