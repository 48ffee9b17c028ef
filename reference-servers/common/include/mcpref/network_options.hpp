// Settings shared by the network server ends (Streamable HTTP, WebSocket): where to listen and
// what to accept. Loopback by default: a local MCP server reachable from other machines or from
// web pages is a security hole, so widening either is an explicit choice of the caller.
#pragma once

#include "mcpref/line_reader.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace mcpref {

struct NetworkOptions {
  std::string host = "127.0.0.1";
  int port = 0;             // 0: any free port (reported through on_listening)
  std::string path = "/mcp";
  std::size_t max_message_bytes = kDefaultMaxLineBytes;
  // Protocol versions the dispatcher speaks; an MCP-Protocol-Version header naming another one
  // is refused with 400 (HTTP). Empty: the header is not checked.
  std::vector<std::string> protocol_versions;
  // Called once the socket listens, with the actual port (so a caller can print it).
  std::function<void(int port)> on_listening;
  // Connections held at once (being served or waiting for a worker); one more is answered 503
  // and closed, so a peer opening sockets without end cannot exhaust threads or descriptors.
  std::size_t max_connections = 256;
  // A connection that sends nothing for this long is closed: a WebSocket between messages; over
  // HTTP, inside a request and between kept-alive requests, this time but at most 5 s.
  int idle_timeout_seconds = 120;
};

// Bounds of one HTTP request head (request line and headers) read by the server ends.
inline constexpr std::size_t kMaxRequestHeadBytes = 64 * 1024;

// True for the host part of a Host header or Origin URL that names this machine's loopback
// interface (localhost, 127.0.0.1, [::1]), with or without a port. Used against DNS rebinding.
bool is_loopback_authority(const std::string& authority);

// True when an Origin header value may reach a local server: absent/empty, or a loopback URL.
bool is_allowed_origin(const std::string& origin);

// True when a Host header may reach a server listening on `bound_host`: absent/empty (HTTP/1.0),
// a loopback name, or exactly the bound address (with any port). A name that merely starts with
// the address ("127.0.0.1.evil.example") is refused: that is what DNS rebinding would send.
bool is_allowed_host(const std::string& host_header, const std::string& bound_host);

}  // namespace mcpref
