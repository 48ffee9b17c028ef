#pragma once
// RFC 6455 framing for both ends: as a client (testing a server) the frames we send are masked and
// the server's must not be; as a server (testing a client) ours are unmasked and the client's must
// be masked. Frames are decoded incrementally with a size bound, control frames checked, fragments
// reassembled.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::transport::http {

enum class WsOpcode : std::uint8_t { Continuation = 0, Text = 1, Binary = 2, Close = 8, Ping = 9, Pong = 10 };

// One frame from client to server (FIN set, masked with `mask`).
std::string ws_client_frame(WsOpcode op, std::string_view payload, std::uint32_t mask);
// One frame from server to client (FIN set, unmasked).
std::string ws_server_frame(WsOpcode op, std::string_view payload);

// A close frame's payload: the status code, two bytes big-endian (RFC 6455 section 5.5.1).
std::string ws_close_payload(int code);
// The status code a close frame's payload carries; 1005 ("no status received") when it has none.
int ws_close_code(std::string_view payload);

// Standard base64 (RFC 4648, with padding).
std::string ws_base64(const unsigned char* data, std::size_t n);
// The Sec-WebSocket-Accept that answers Sec-WebSocket-Key `key` (RFC 6455 section 4.2.2).
std::string ws_accept(const std::string& key);

// Which end decodes: a Client reads server frames (must be unmasked), a Server reads client frames
// (must be masked; they are unmasked here).
enum class WsRole { Client, Server };

struct WsMessage {
  WsOpcode opcode = WsOpcode::Text;  // Text, Binary (whole message), Close, Ping or Pong
  std::string payload;
};

class WsDecoder {
 public:
  explicit WsDecoder(std::size_t max_message_bytes, WsRole role = WsRole::Client)
      : max_(max_message_bytes), role_(role) {}
  // Feeds bytes; complete messages go to `out`. Returns false on a protocol error (error() says
  // which); the connection must then be closed.
  bool feed(std::string_view bytes, std::vector<WsMessage>& out);
  const std::string& error() const { return error_; }

 private:
  std::size_t max_;
  WsRole role_;
  std::string buf_;
  std::string partial_;  // a fragmented data message so far
  std::optional<WsOpcode> partial_op_;
  std::string error_;
};

}  // namespace mcpspec::transport::http
