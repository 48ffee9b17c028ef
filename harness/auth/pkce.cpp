#include "harness/auth/pkce.hpp"

#include "harness/auth/base64url.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace mcpspec::auth {

std::string sha256(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  return std::string(reinterpret_cast<const char*>(md), len);
}

std::string s256_challenge(std::string_view verifier) { return base64url_encode(sha256(verifier)); }

bool valid_verifier(std::string_view v) {
  if (v.size() < 43 || v.size() > 128) return false;
  for (char c : v) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
              c == '_' || c == '~';
    if (!ok) return false;
  }
  return true;
}

std::string random_token(std::size_t n) {
  std::string bytes(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(n)) != 1)
    throw std::runtime_error("OpenSSL RAND_bytes failed");
  return base64url_encode(bytes);
}

std::string new_verifier() { return random_token(32); }

}  // namespace mcpspec::auth
