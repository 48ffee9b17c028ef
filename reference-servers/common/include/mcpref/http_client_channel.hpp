// ClientChannel over MCP's Streamable HTTP transport: every message is one POST to the endpoint,
// answered with a JSON body or an SSE stream (both handled); the Mcp-Session-Id the server
// issues at initialize is sent back on every later request, with MCP-Protocol-Version once a
// version is agreed; close() ends the session with a DELETE. After notifications/initialized a
// standalone GET stream carries what the server sends on its own (requests such as ping,
// notifications); it is reopened when it ends, unless the server answers 404 or 405.
#pragma once

#include "mcpref/client_channel.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace mcpref {

struct HttpClientOptions {
  std::string url;  // http://host:port/path (https when the library was built with TLS)
  // Sent as MCP-Protocol-Version until initialize answers with the agreed version.
  std::string protocol_version = "2025-11-25";
  std::size_t max_message_bytes = 4u * 1024u * 1024u;
};

// Splits an endpoint URL into what cpp-httplib wants: "scheme://host:port" and the path. Throws
// std::invalid_argument naming what is wrong (no scheme, unsupported scheme, no host).
struct EndpointUrl {
  std::string origin;  // scheme://host[:port]
  std::string path;    // "/" when the URL has none
};
EndpointUrl split_endpoint_url(const std::string& url);

class HttpClientChannel : public ClientChannel {
 public:
  explicit HttpClientChannel(HttpClientOptions options);
  ~HttpClientChannel() override;  // close(500 ms)
  HttpClientChannel(const HttpClientChannel&) = delete;
  HttpClientChannel& operator=(const HttpClientChannel&) = delete;

  // Checks the URL (ChannelClosed naming it when unusable). Nothing is sent yet: HTTP needs no
  // connection before the first request, and an unreachable server shows in that request.
  void open(std::chrono::milliseconds timeout) override;
  Json request(const std::string& method, const Json& params, std::chrono::milliseconds timeout) override;
  void notify(const std::string& method, const Json& params) override;
  bool is_open() const override;
  void close(std::chrono::milliseconds grace) override;

  // The session the server issued ("" before initialize, or when it issues none).
  std::string session_id() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcpref
