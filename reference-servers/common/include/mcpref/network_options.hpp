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
};

// True for the host part of a Host header or Origin URL that names this machine's loopback
// interface (localhost, 127.0.0.1, [::1]), with or without a port. Used against DNS rebinding.
bool is_loopback_authority(const std::string& authority);

// True when an Origin header value may reach a local server: absent/empty, or a loopback URL.
bool is_allowed_origin(const std::string& origin);

}  // namespace mcpref
