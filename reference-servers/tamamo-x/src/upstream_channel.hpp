// Connecting to one configured upstream MCP server as a client: the channel for its transport,
// and the 2024-11-05 handshake the contract document shows (initialize, then initialized).
#pragma once

#include "config.hpp"

#include "mcpref/client_channel.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace tamamo {

inline constexpr const char* kUpstreamProtocol = "2024-11-05";

std::unique_ptr<mcpref::ClientChannel> make_channel(const UpstreamConfig& upstream);

// The versions a server may answer: the tools/list and tools/call that tamamo uses are the same
// in all of them. Any other answer ends the connection.
const std::vector<std::string>& upstream_protocol_versions();

struct Handshake {
  mcpref::Json server_info;
  mcpref::Json capabilities;
  std::string protocol_version;
};

// Opens the channel and performs initialize + notifications/initialized, all within `timeout`.
// The server's pings are answered. Throws the ClientChannel exceptions, or ServerError when the
// answer is no initialize result.
Handshake connect_upstream(mcpref::ClientChannel& channel, std::chrono::milliseconds timeout);

}  // namespace tamamo
