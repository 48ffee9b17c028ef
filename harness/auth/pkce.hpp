#pragma once
// PKCE (RFC 7636) as the mock authorization server checks it and the test client makes it:
// SHA-256 over OpenSSL EVP, the S256 transform, the verifier's syntax (§4.1).
#include <string>
#include <string_view>

namespace mcpspec::auth {

std::string sha256(std::string_view bytes);
// BASE64URL(SHA256(ASCII(verifier))) (RFC 7636 §4.2).
std::string s256_challenge(std::string_view verifier);
// 43 to 128 characters of [A-Z] [a-z] [0-9] - . _ ~ (RFC 7636 §4.1).
bool valid_verifier(std::string_view verifier);
// A fresh verifier: 32 random bytes, base64url (43 characters).
std::string new_verifier();
// `n` random bytes as base64url: codes, tokens, client ids, key ids.
std::string random_token(std::size_t n = 24);

}  // namespace mcpspec::auth
