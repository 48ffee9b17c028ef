#include "harness/transport/http/ws_frame.hpp"

#include <boost/uuid/detail/sha1.hpp>

namespace mcpspec::transport::http {

namespace {

// The frame header: FIN + opcode, then the length in 7, 7+16 or 7+64 bits; `mask_bit` marks a
// masking key to follow.
std::string frame_header(WsOpcode op, std::size_t n, bool mask_bit) {
  std::string f;
  unsigned char m = mask_bit ? 0x80 : 0x00;
  f.push_back(static_cast<char>(0x80 | static_cast<std::uint8_t>(op)));
  if (n < 126) {
    f.push_back(static_cast<char>(m | n));
  } else if (n <= 0xFFFF) {
    f.push_back(static_cast<char>(m | 126));
    f.push_back(static_cast<char>((n >> 8) & 0xFF));
    f.push_back(static_cast<char>(n & 0xFF));
  } else {
    f.push_back(static_cast<char>(m | 127));
    for (int i = 7; i >= 0; --i) f.push_back(static_cast<char>((static_cast<std::uint64_t>(n) >> (8 * i)) & 0xFF));
  }
  return f;
}

}  // namespace

std::string ws_server_frame(WsOpcode op, std::string_view payload) {
  return frame_header(op, payload.size(), false) + std::string(payload);
}

std::string ws_close_payload(int code) {
  return std::string{static_cast<char>((code >> 8) & 0xFF), static_cast<char>(code & 0xFF)};
}

int ws_close_code(std::string_view payload) {
  if (payload.size() < 2) return 1005;
  return (static_cast<unsigned char>(payload[0]) << 8) | static_cast<unsigned char>(payload[1]);
}

std::string ws_base64(const unsigned char* data, std::size_t n) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < n; i += 3) {
    unsigned v = data[i] << 16 | (i + 1 < n ? data[i + 1] << 8 : 0) | (i + 2 < n ? data[i + 2] : 0);
    out += t[(v >> 18) & 63];
    out += t[(v >> 12) & 63];
    out += i + 1 < n ? t[(v >> 6) & 63] : '=';
    out += i + 2 < n ? t[v & 63] : '=';
  }
  return out;
}

std::string ws_accept(const std::string& key) {
  boost::uuids::detail::sha1 h;
  std::string s = key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  h.process_bytes(s.data(), s.size());
  boost::uuids::detail::sha1::digest_type d;
  h.get_digest(d);
  unsigned char bytes[20];
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) bytes[i * 4 + j] = static_cast<unsigned char>((d[i] >> (24 - 8 * j)) & 0xFF);
  return ws_base64(bytes, 20);
}

std::string ws_client_frame(WsOpcode op, std::string_view payload, std::uint32_t mask) {
  std::size_t n = payload.size();
  std::string f = frame_header(op, n, true);
  unsigned char m[4] = {static_cast<unsigned char>(mask >> 24), static_cast<unsigned char>(mask >> 16),
                        static_cast<unsigned char>(mask >> 8), static_cast<unsigned char>(mask)};
  for (unsigned char b : m) f.push_back(static_cast<char>(b));
  for (std::size_t i = 0; i < n; ++i) f.push_back(static_cast<char>(static_cast<unsigned char>(payload[i]) ^ m[i % 4]));
  return f;
}

bool WsDecoder::feed(std::string_view bytes, std::vector<WsMessage>& out) {
  if (!error_.empty()) return false;
  buf_.append(bytes);
  for (;;) {
    if (buf_.size() < 2) return true;
    auto b0 = static_cast<unsigned char>(buf_[0]), b1 = static_cast<unsigned char>(buf_[1]);
    bool fin = b0 & 0x80;
    auto op = static_cast<WsOpcode>(b0 & 0x0F);
    bool masked = b1 & 0x80;
    std::uint64_t len = b1 & 0x7F;
    std::size_t header = 2;
    if (b0 & 0x70) return error_ = "reserved bits set without an extension", false;
    if (role_ == WsRole::Client && masked) return error_ = "the server masked a frame (servers must not)", false;
    if (role_ == WsRole::Server && !masked) return error_ = "the client sent an unmasked frame (clients must mask)", false;
    if (len == 126) {
      if (buf_.size() < 4) return true;
      len = (static_cast<std::uint64_t>(static_cast<unsigned char>(buf_[2])) << 8) | static_cast<unsigned char>(buf_[3]);
      header = 4;
    } else if (len == 127) {
      if (buf_.size() < 10) return true;
      len = 0;
      for (int i = 0; i < 8; ++i) len = (len << 8) | static_cast<unsigned char>(buf_[2 + i]);
      header = 10;
      if (len >> 63) return error_ = "frame length with the top bit set", false;
    }
    bool control = static_cast<std::uint8_t>(op) >= 8;
    if (control && (!fin || len > 125)) return error_ = "a control frame is fragmented or longer than 125 bytes", false;
    if (!control && op != WsOpcode::Text && op != WsOpcode::Binary && op != WsOpcode::Continuation)
      return error_ = "unknown opcode " + std::to_string(static_cast<int>(op)), false;
    if (len > max_ || partial_.size() + len > max_)
      return error_ = "message larger than " + std::to_string(max_) + " bytes", false;
    std::size_t key = masked ? 4 : 0;
    if (buf_.size() < header + key + len) return true;
    std::string payload = buf_.substr(header + key, static_cast<std::size_t>(len));
    for (std::size_t i = 0; key && i < payload.size(); ++i)
      payload[i] = static_cast<char>(static_cast<unsigned char>(payload[i]) ^ static_cast<unsigned char>(buf_[header + i % 4]));
    buf_.erase(0, header + key + static_cast<std::size_t>(len));
    if (control) {
      out.push_back({op, std::move(payload)});
      continue;
    }
    if (op == WsOpcode::Continuation) {
      if (!partial_op_) return error_ = "a continuation frame without a message to continue", false;
      partial_ += payload;
    } else {
      if (partial_op_) return error_ = "a new data frame inside a fragmented message", false;
      partial_op_ = op;
      partial_ = std::move(payload);
    }
    if (fin) {
      out.push_back({*partial_op_, std::move(partial_)});
      partial_.clear();
      partial_op_.reset();
    }
  }
}

}  // namespace mcpspec::transport::http
