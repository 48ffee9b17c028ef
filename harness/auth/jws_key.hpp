#pragma once
// One JWS key (RS256 over RSA-2048, or ES256 over P-256) on OpenSSL 3 EVP: generated per run by the
// mock authorization server (with its private half), or imported from a JWK (public half only) to
// verify tokens. Exports its public half as a JWK for the JWKS endpoint.
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace mcpspec::auth {

enum class JwsAlg { RS256, ES256 };
std::string alg_name(JwsAlg alg);
std::optional<JwsAlg> alg_from_name(std::string_view name);

class JwsKey {
 public:
  // A fresh key pair. Throws std::runtime_error when OpenSSL cannot make one.
  static JwsKey generate(JwsAlg alg, std::string kid);
  // The public key a JWK describes (kty RSA with n/e, or kty EC crv P-256 with x/y); throws
  // std::invalid_argument naming the missing or malformed member.
  static JwsKey from_jwk(const nlohmann::json& jwk);

  JwsAlg alg() const { return alg_; }
  const std::string& kid() const { return kid_; }
  bool has_private() const { return private_; }
  // The JWS signature over `input` (ES256: the 64-byte r||s form, not DER). Throws when the key has
  // no private half.
  std::string sign(std::string_view input) const;
  bool verify(std::string_view input, std::string_view signature) const;
  // {"kty", "kid", "use": "sig", "alg", n/e or crv/x/y}: the public half only.
  nlohmann::json public_jwk() const;

 private:
  JwsKey(std::shared_ptr<EVP_PKEY> pkey, JwsAlg alg, std::string kid, bool priv)
      : pkey_(std::move(pkey)), alg_(alg), kid_(std::move(kid)), private_(priv) {}
  std::shared_ptr<EVP_PKEY> pkey_;
  JwsAlg alg_;
  std::string kid_;
  bool private_ = false;
};

}  // namespace mcpspec::auth
