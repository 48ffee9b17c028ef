#pragma once
// A set of JWS keys by kid: what a JWKS document (RFC 7517 §5) holds. The mock authorization server
// keeps its signing keys here and serves `jwks()` at its jwks_uri; a verifier builds one from a
// fetched JWKS document.
#include "harness/auth/jws_key.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::auth {

class KeySet {
 public:
  void add(JwsKey key) { keys_.push_back(std::move(key)); }
  // The key with this kid, or null.
  const JwsKey* find(const std::string& kid) const;
  // {"keys": [public JWKs]}.
  nlohmann::json jwks() const;
  // Imports every key of a JWKS document; throws std::invalid_argument naming the bad entry.
  static KeySet from_jwks(const nlohmann::json& doc);
  bool empty() const { return keys_.empty(); }

 private:
  std::vector<JwsKey> keys_;
};

}  // namespace mcpspec::auth
