#include "harness/transport/http/ws_frame.hpp"

namespace mcpspec::transport::http {

std::string ws_client_frame(WsOpcode op, std::string_view payload, std::uint32_t mask) {
  std::string f;
  f.push_back(static_cast<char>(0x80 | static_cast<std::uint8_t>(op)));
  std::size_t n = payload.size();
  if (n < 126) {
    f.push_back(static_cast<char>(0x80 | n));
  } else if (n <= 0xFFFF) {
    f.push_back(static_cast<char>(0x80 | 126));
    f.push_back(static_cast<char>((n >> 8) & 0xFF));
    f.push_back(static_cast<char>(n & 0xFF));
  } else {
    f.push_back(static_cast<char>(0x80 | 127));
    for (int i = 7; i >= 0; --i) f.push_back(static_cast<char>((static_cast<std::uint64_t>(n) >> (8 * i)) & 0xFF));
  }
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
    if (masked) return error_ = "the server masked a frame (servers must not)", false;
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
    if (buf_.size() < header + len) return true;
    std::string payload = buf_.substr(header, static_cast<std::size_t>(len));
    buf_.erase(0, header + static_cast<std::size_t>(len));
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
