#include "harness/auth/base64url.hpp"

#include <openssl/evp.h>

#include <vector>

namespace mcpspec::auth {

std::string base64url_encode(std::string_view bytes) {
  std::vector<unsigned char> out(4 * ((bytes.size() + 2) / 3) + 1);
  int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  std::string text(reinterpret_cast<const char*>(out.data()), static_cast<std::size_t>(n));
  while (!text.empty() && text.back() == '=') text.pop_back();
  for (char& c : text) {
    if (c == '+') c = '-';
    else if (c == '/') c = '_';
  }
  return text;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  // A length of 1 mod 4 encodes no byte string.
  if (text.size() % 4 == 1) return std::nullopt;
  std::string b64;
  b64.reserve(text.size() + 3);
  for (char c : text) {
    bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (plain) b64 += c;
    else if (c == '-') b64 += '+';
    else if (c == '_') b64 += '/';
    else return std::nullopt;  // includes '=', '+', '/', whitespace
  }
  std::size_t pad = (4 - b64.size() % 4) % 4;
  b64.append(pad, '=');
  std::vector<unsigned char> out(3 * (b64.size() / 4) + 1);
  int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(b64.data()), static_cast<int>(b64.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding as zero bytes.
  std::size_t len = static_cast<std::size_t>(n) - pad;
  std::string bytes(reinterpret_cast<const char*>(out.data()), len);
  // Non-canonical trailing bits (e.g. "QR" for "A") would decode; JOSE requires canonical text.
  if (base64url_encode(bytes) != text) return std::nullopt;
  return bytes;
}

}  // namespace mcpspec::auth
