// ClientChannel over a WebSocket (ws://host:port/path), one JSON-RPC message per text frame, on
// Boost.Beast. Offers the subprotocol "mcp". Every wait (connect, handshake, request) has its
// deadline; a dropped socket fails every waiting request at once.
#pragma once

#include "mcpref/client_channel.hpp"
#include "mcpref/line_reader.hpp"

#include <memory>
#include <string>

namespace mcpref {

struct WebSocketClientOptions {
  std::string url;  // ws://HOST:PORT/PATH (wss is not supported: the reference systems are local)
  std::size_t max_message_bytes = kDefaultMaxLineBytes;
};

// Splits a ws:// URL. Throws std::invalid_argument naming what is wrong with it.
struct WebSocketUrl {
  std::string host, port, target;
};
WebSocketUrl parse_websocket_url(const std::string& url);

class WebSocketClientChannel : public ClientChannel {
 public:
  explicit WebSocketClientChannel(WebSocketClientOptions options);
  ~WebSocketClientChannel() override;  // close(500 ms)
  WebSocketClientChannel(const WebSocketClientChannel&) = delete;
  WebSocketClientChannel& operator=(const WebSocketClientChannel&) = delete;

  // Resolves, connects and performs the opening handshake within `timeout`; throws
  // ChannelClosed naming the URL and the reason.
  void open(std::chrono::milliseconds timeout) override;
  Json request(const std::string& method, const Json& params, std::chrono::milliseconds timeout) override;
  void notify(const std::string& method, const Json& params) override;
  bool is_open() const override;
  void close(std::chrono::milliseconds grace) override;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace mcpref
