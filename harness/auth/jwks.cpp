#include "harness/auth/jwks.hpp"

#include <stdexcept>

namespace mcpspec::auth {

const JwsKey* KeySet::find(const std::string& kid) const {
  for (const auto& k : keys_)
    if (k.kid() == kid) return &k;
  return nullptr;
}

nlohmann::json KeySet::jwks() const {
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& k : keys_) keys.push_back(k.public_jwk());
  return {{"keys", keys}};
}

KeySet KeySet::from_jwks(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("keys") || !doc["keys"].is_array())
    throw std::invalid_argument("JWKS is not an object with a \"keys\" array");
  KeySet set;
  for (std::size_t i = 0; i < doc["keys"].size(); ++i) {
    try {
      set.add(JwsKey::from_jwk(doc["keys"][i]));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("JWKS keys[" + std::to_string(i) + "]: " + e.what());
    }
  }
  return set;
}

}  // namespace mcpspec::auth
