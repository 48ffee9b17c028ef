#include "harness/auth/jws_key.hpp"

#include "harness/auth/base64url.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include <stdexcept>
#include <vector>

namespace mcpspec::auth {

namespace {

constexpr std::size_t kP256Bytes = 32;

struct BnFree {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
using Bn = std::unique_ptr<BIGNUM, BnFree>;

std::shared_ptr<EVP_PKEY> own(EVP_PKEY* p) {
  if (!p) throw std::runtime_error("OpenSSL could not make the key");
  return std::shared_ptr<EVP_PKEY>(p, EVP_PKEY_free);
}

std::string bn_bytes(const EVP_PKEY* pkey, const char* name, int pad) {
  BIGNUM* raw = nullptr;
  if (EVP_PKEY_get_bn_param(pkey, name, &raw) != 1) throw std::runtime_error(std::string("key has no ") + name);
  Bn bn(raw);
  int len = pad > 0 ? pad : BN_num_bytes(bn.get());
  std::string out(static_cast<std::size_t>(len), '\0');
  BN_bn2binpad(bn.get(), reinterpret_cast<unsigned char*>(out.data()), len);
  return out;
}

std::string member(const nlohmann::json& jwk, const char* name) {
  if (!jwk.contains(name) || !jwk[name].is_string()) throw std::invalid_argument(std::string("JWK lacks string \"") + name + "\"");
  auto bytes = base64url_decode(jwk[name].get<std::string>());
  if (!bytes || bytes->empty()) throw std::invalid_argument(std::string("JWK \"") + name + "\" is not base64url");
  return *bytes;
}

Bn to_bn(const std::string& bytes) {
  return Bn(BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()), nullptr));
}

std::shared_ptr<EVP_PKEY> from_params(const char* type, OSSL_PARAM_BLD* bld) {
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr);
  EVP_PKEY* pkey = nullptr;
  bool ok = params && ctx && EVP_PKEY_fromdata_init(ctx) == 1 &&
            EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1;
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  if (!ok) throw std::invalid_argument(std::string("JWK is not a usable ") + type + " public key");
  return own(pkey);
}

// ES256 signatures travel as r||s (RFC 7518 §3.4); OpenSSL speaks DER.
std::string der_to_raw(const std::string& der) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size()));
  if (!sig) throw std::runtime_error("OpenSSL made an unreadable ECDSA signature");
  const BIGNUM *r = nullptr, *s = nullptr;
  ECDSA_SIG_get0(sig, &r, &s);
  std::string out(2 * kP256Bytes, '\0');
  BN_bn2binpad(r, reinterpret_cast<unsigned char*>(out.data()), kP256Bytes);
  BN_bn2binpad(s, reinterpret_cast<unsigned char*>(out.data()) + kP256Bytes, kP256Bytes);
  ECDSA_SIG_free(sig);
  return out;
}

std::optional<std::string> raw_to_der(std::string_view raw) {
  if (raw.size() != 2 * kP256Bytes) return std::nullopt;
  ECDSA_SIG* sig = ECDSA_SIG_new();
  BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()), kP256Bytes, nullptr);
  BIGNUM* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()) + kP256Bytes, kP256Bytes, nullptr);
  ECDSA_SIG_set0(sig, r, s);
  unsigned char* der = nullptr;
  int len = i2d_ECDSA_SIG(sig, &der);
  ECDSA_SIG_free(sig);
  if (len <= 0) return std::nullopt;
  std::string out(reinterpret_cast<const char*>(der), static_cast<std::size_t>(len));
  OPENSSL_free(der);
  return out;
}

}  // namespace

std::string alg_name(JwsAlg alg) { return alg == JwsAlg::RS256 ? "RS256" : "ES256"; }

std::optional<JwsAlg> alg_from_name(std::string_view name) {
  if (name == "RS256") return JwsAlg::RS256;
  if (name == "ES256") return JwsAlg::ES256;
  return std::nullopt;
}

JwsKey JwsKey::generate(JwsAlg alg, std::string kid) {
  EVP_PKEY* p = alg == JwsAlg::RS256 ? EVP_RSA_gen(2048) : EVP_EC_gen("P-256");
  return JwsKey(own(p), alg, std::move(kid), true);
}

JwsKey JwsKey::from_jwk(const nlohmann::json& jwk) {
  if (!jwk.is_object()) throw std::invalid_argument("JWK is not a JSON object");
  std::string kty = jwk.value("kty", "");
  std::string kid = jwk.contains("kid") && jwk["kid"].is_string() ? jwk["kid"].get<std::string>() : "";
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  if (kty == "RSA") {
    Bn n = to_bn(member(jwk, "n")), e = to_bn(member(jwk, "e"));
    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n.get());
    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e.get());
    return JwsKey(from_params("RSA", bld), JwsAlg::RS256, kid, false);
  }
  if (kty == "EC") {
    if (jwk.value("crv", "") != "P-256") {
      OSSL_PARAM_BLD_free(bld);
      throw std::invalid_argument("JWK crv is not P-256");
    }
    std::string x = member(jwk, "x"), y = member(jwk, "y");
    if (x.size() != kP256Bytes || y.size() != kP256Bytes) {
      OSSL_PARAM_BLD_free(bld);
      throw std::invalid_argument("JWK x/y are not 32 bytes");
    }
    std::string point = "\x04" + x + y;  // uncompressed SEC1 point
    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size());
    return JwsKey(from_params("EC", bld), JwsAlg::ES256, kid, false);
  }
  OSSL_PARAM_BLD_free(bld);
  throw std::invalid_argument("JWK kty \"" + kty + "\" is not RSA or EC");
}

std::string JwsKey::sign(std::string_view input) const {
  if (!private_) throw std::logic_error("a public JWK cannot sign");
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::size_t len = 0;
  std::vector<unsigned char> sig;
  bool ok = ctx && EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, pkey_.get()) == 1 &&
            EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
  if (ok) {
    sig.resize(len);
    ok = EVP_DigestSign(ctx, sig.data(), &len, reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
  }
  EVP_MD_CTX_free(ctx);
  if (!ok) throw std::runtime_error("OpenSSL signing failed");
  std::string out(reinterpret_cast<const char*>(sig.data()), len);
  return alg_ == JwsAlg::ES256 ? der_to_raw(out) : out;
}

bool JwsKey::verify(std::string_view input, std::string_view signature) const {
  std::string sig(signature);
  if (alg_ == JwsAlg::ES256) {
    auto der = raw_to_der(signature);
    if (!der) return false;
    sig = *der;
  }
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx && EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, pkey_.get()) == 1 &&
            EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                             reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

nlohmann::json JwsKey::public_jwk() const {
  nlohmann::json jwk = {{"kid", kid_}, {"use", "sig"}, {"alg", alg_name(alg_)}};
  if (alg_ == JwsAlg::RS256) {
    jwk["kty"] = "RSA";
    jwk["n"] = base64url_encode(bn_bytes(pkey_.get(), OSSL_PKEY_PARAM_RSA_N, 0));
    jwk["e"] = base64url_encode(bn_bytes(pkey_.get(), OSSL_PKEY_PARAM_RSA_E, 0));
  } else {
    jwk["kty"] = "EC";
    jwk["crv"] = "P-256";
    jwk["x"] = base64url_encode(bn_bytes(pkey_.get(), OSSL_PKEY_PARAM_EC_PUB_X, kP256Bytes));
    jwk["y"] = base64url_encode(bn_bytes(pkey_.get(), OSSL_PKEY_PARAM_EC_PUB_Y, kP256Bytes));
  }
  return jwk;
}

}  // namespace mcpspec::auth
