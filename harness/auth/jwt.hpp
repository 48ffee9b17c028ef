#pragma once
// Compact JWS tokens (RFC 7515) carrying JWT claims: what the mock authorization server issues as
// access tokens (RFC 9068: typ "at+jwt") and what the protected resource verifies. Verification
// refuses, each with its own reason: a token that is not three base64url segments, a header or
// payload that is not a JSON object, alg "none" or any alg other than the key's, an unknown kid, a
// signature that does not verify. Claim checks (exp, iss, aud) are a separate step.
#include "harness/auth/jwks.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace mcpspec::auth {

// header: {"alg", "kid", "typ": typ}; payload: claims.
std::string sign_jwt(const nlohmann::json& claims, const JwsKey& key, const std::string& typ = "at+jwt");
// An unsecured JWT (alg "none", empty signature): only ever sent to prove a verifier refuses it.
std::string unsigned_jwt(const nlohmann::json& claims);

struct JwtCheck {
  bool ok = false;
  std::string error;  // why it was refused ("bad signature", "unknown kid \"x\"", ...)
  nlohmann::json header, claims;
};
JwtCheck verify_jwt(const std::string& token, const KeySet& keys);

// The claims a resource server checks (RFC 9068 §4): iss equal byte for byte, aud (string or array)
// containing `audience`, exp in the future, nbf not in the future. Empty when all hold, else why not.
std::string check_claims(const nlohmann::json& claims, const std::string& issuer, const std::string& audience,
                         long long now_seconds);

}  // namespace mcpspec::auth
