#include "harness/auth/jwt.hpp"

#include "harness/auth/base64url.hpp"

#include <fmt/format.h>

namespace mcpspec::auth {

using nlohmann::json;

std::string sign_jwt(const json& claims, const JwsKey& key, const std::string& typ) {
  json header = {{"alg", alg_name(key.alg())}, {"kid", key.kid()}, {"typ", typ}};
  std::string input = base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
  return input + "." + base64url_encode(key.sign(input));
}

std::string unsigned_jwt(const json& claims) {
  json header = {{"alg", "none"}, {"typ", "JWT"}};
  return base64url_encode(header.dump()) + "." + base64url_encode(claims.dump()) + ".";
}

JwtCheck verify_jwt(const std::string& token, const KeySet& keys) {
  JwtCheck out;
  auto d1 = token.find('.');
  auto d2 = d1 == std::string::npos ? d1 : token.find('.', d1 + 1);
  if (d2 == std::string::npos || token.find('.', d2 + 1) != std::string::npos) {
    out.error = "not a compact JWS (three dot-separated segments)";
    return out;
  }
  auto h = base64url_decode(std::string_view(token).substr(0, d1));
  auto p = base64url_decode(std::string_view(token).substr(d1 + 1, d2 - d1 - 1));
  auto s = base64url_decode(std::string_view(token).substr(d2 + 1));
  if (!h || !p || !s) {
    out.error = "a segment is not base64url";
    return out;
  }
  out.header = json::parse(*h, nullptr, false);
  out.claims = json::parse(*p, nullptr, false);
  if (!out.header.is_object() || !out.claims.is_object()) {
    out.error = "header or payload is not a JSON object";
    return out;
  }
  std::string alg = out.header.contains("alg") && out.header["alg"].is_string() ? out.header["alg"].get<std::string>() : "";
  if (alg == "none" || alg.empty()) {
    out.error = "alg \"" + alg + "\" refused (unsecured JWT)";
    return out;
  }
  std::string kid = out.header.contains("kid") && out.header["kid"].is_string() ? out.header["kid"].get<std::string>() : "";
  const JwsKey* key = keys.find(kid);
  if (!key) {
    out.error = fmt::format("unknown kid \"{}\"", kid);
    return out;
  }
  if (alg != alg_name(key->alg())) {
    out.error = fmt::format("alg \"{}\" does not match key \"{}\" ({})", alg, kid, alg_name(key->alg()));
    return out;
  }
  if (!key->verify(std::string_view(token).substr(0, d2), *s)) {
    out.error = "bad signature";
    return out;
  }
  out.ok = true;
  return out;
}

std::string check_claims(const json& claims, const std::string& issuer, const std::string& audience, long long now) {
  if (!claims.contains("iss") || claims["iss"] != issuer)
    return fmt::format("iss {} is not \"{}\"", claims.value("iss", json()).dump(), issuer);
  const json aud = claims.value("aud", json());
  bool aud_ok = aud == audience;
  if (aud.is_array())
    for (const auto& a : aud) aud_ok = aud_ok || a == audience;
  if (!aud_ok) return fmt::format("aud {} does not name \"{}\"", aud.dump(), audience);
  if (!claims.contains("exp") || !claims["exp"].is_number()) return "no numeric exp";
  if (claims["exp"].get<double>() <= static_cast<double>(now)) return "expired";
  if (claims.contains("nbf") && claims["nbf"].is_number() && claims["nbf"].get<double>() > static_cast<double>(now))
    return "not yet valid (nbf)";
  return "";
}

}  // namespace mcpspec::auth
