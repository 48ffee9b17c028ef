#include "introspection.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <mutex>
#include <sstream>

namespace authtest {

namespace {

using nlohmann::json;

// "http://host:port/path" -> ("http://host:port", "/path").
std::pair<std::string, std::string> split(const std::string& url) {
  auto scheme = url.find("://");
  auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (slash == std::string::npos) return {url, "/"};
  return {url.substr(0, slash), url.substr(slash)};
}

httplib::Client client_for(const std::string& origin) {
  httplib::Client c(origin);
  c.set_connection_timeout(3);
  c.set_read_timeout(5);
  return c;
}

// The introspection endpoint from the issuer's metadata (RFC 8414 §3: the well-known URL with the
// issuer's path appended), fetched once; empty when the AS does not serve one.
std::string introspection_endpoint(const std::string& issuer) {
  static std::mutex mu;
  static std::string cached;
  std::lock_guard<std::mutex> lock(mu);
  if (!cached.empty()) return cached;
  auto [origin, path] = split(issuer);
  auto c = client_for(origin);
  auto r = c.Get("/.well-known/oauth-authorization-server" + (path == "/" ? std::string() : path));
  if (!r || r->status != 200) return "";
  json m = json::parse(r->body, nullptr, false);
  if (m.is_object() && m.contains("introspection_endpoint") && m["introspection_endpoint"].is_string())
    cached = m["introspection_endpoint"];
  return cached;
}

}  // namespace

std::optional<TokenInfo> introspect(const std::string& token, const Options& o, const std::string& resource) {
  const std::string endpoint = introspection_endpoint(o.trusted_issuer);
  if (endpoint.empty()) return std::nullopt;
  auto [origin, path] = split(endpoint);
  auto c = client_for(origin);
  auto r = c.Post(path, httplib::Params{{"token", token}, {"token_type_hint", "access_token"}});
  if (!r || r->status != 200) return std::nullopt;
  json j = json::parse(r->body, nullptr, false);
  if (!j.is_object() || j.value("active", false) != true) return std::nullopt;
  if (j.value("iss", "") != o.trusted_issuer && !o.fault("accept-foreign-issuer")) return std::nullopt;
  TokenInfo t;
  std::istringstream scopes(j.value("scope", ""));
  for (std::string s; scopes >> s;) t.scopes.insert(s);
  const json aud = j.contains("aud") ? j["aud"] : json();
  if (aud.is_string()) t.audience = aud;
  else if (aud.is_array())
    for (const auto& a : aud)
      if (a.is_string() && (t.audience.empty() || a == resource)) t.audience = a;
  // The table's empty audience means "this server"; an absent claim must not read as that.
  if (t.audience.empty() && !o.fault("accept-missing-audience")) t.audience = "(none)";
  return t;
}

}  // namespace authtest
