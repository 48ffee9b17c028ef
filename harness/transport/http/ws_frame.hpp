#pragma once
// RFC 6455 framing as the client side needs it: frames we send are masked; frames from the server
// are decoded incrementally with a size bound, control frames checked, fragments reassembled.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::transport::http {

enum class WsOpcode : std::uint8_t { Continuation = 0, Text = 1, Binary = 2, Close = 8, Ping = 9, Pong = 10 };

// One frame from client to server (FIN set, masked with `mask`).
std::string ws_client_frame(WsOpcode op, std::string_view payload, std::uint32_t mask);

struct WsMessage {
  WsOpcode opcode = WsOpcode::Text;  // Text, Binary (whole message), Close, Ping or Pong
  std::string payload;
};

class WsDecoder {
 public:
  explicit WsDecoder(std::size_t max_message_bytes) : max_(max_message_bytes) {}
  // Feeds bytes; complete messages go to `out`. Returns false on a protocol error (error() says
  // which); the connection must then be closed.
  bool feed(std::string_view bytes, std::vector<WsMessage>& out);
  const std::string& error() const { return error_; }

 private:
  std::size_t max_;
  std::string buf_;
  std::string partial_;  // a fragmented data message so far
  std::optional<WsOpcode> partial_op_;
  std::string error_;
};

}  // namespace mcpspec::transport::http
