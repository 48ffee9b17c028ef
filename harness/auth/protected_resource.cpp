#include "harness/auth/protected_resource.hpp"

#include "harness/auth/request_headers.hpp"
#include "harness/auth/www_authenticate.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <stdexcept>

namespace mcpspec::auth {

using nlohmann::json;

namespace {

// What the POST body asks for, for the scope table and the log.
std::string mcp_method(const std::string& body) {
  json b = json::parse(body, nullptr, false);
  if (b.is_object() && b.contains("method") && b["method"].is_string()) return b["method"];
  if (b.is_object()) return "response";
  if (b.is_array()) return "batch";
  return "";
}

}  // namespace

ResourceConfig parse_resource_config(const json& j, const std::string& where) {
  ResourceConfig c;
  if (j.is_null()) return c;
  if (!j.is_object()) throw std::invalid_argument(where + ": must be an object");
  for (const auto& [key, v] : j.items()) {
    std::string at = where + "." + key;
    if (key == "prm_at") {
      if (!v.is_array()) throw std::invalid_argument(at + ": must be an array of \"header\", \"path\", \"root\"");
      c.prm_at.clear();
      for (const auto& w : v) {
        if (!w.is_string() || (w != "header" && w != "path" && w != "root"))
          throw std::invalid_argument(at + ": must be an array of \"header\", \"path\", \"root\"");
        c.prm_at.push_back(w);
      }
    } else if (key == "challenge_resource_metadata" || key == "open_initialize" || key == "challenge_variant" ||
               key == "as_metadata_at_origin") {
      if (!v.is_boolean()) throw std::invalid_argument(at + ": must be true or false");
      (key == "open_initialize"         ? c.open_initialize
       : key == "challenge_variant"     ? c.challenge_variant
       : key == "as_metadata_at_origin" ? c.as_metadata_at_origin
                                        : c.challenge_resource_metadata) = v;
    } else if (key == "challenge_scope" || key == "prm_resource") {
      if (!v.is_string()) throw std::invalid_argument(at + ": must be a string");
      (key == "prm_resource" ? c.prm_resource : c.challenge_scope) = v;
    } else if (key == "scopes_supported") {
      if (!v.is_null() && !v.is_array()) throw std::invalid_argument(at + ": must be an array of strings or null");
      for (const auto& s : v)
        if (!s.is_string()) throw std::invalid_argument(at + ": must be an array of strings or null");
      c.scopes_supported = v;
    } else if (key == "method_scopes") {
      if (!v.is_object()) throw std::invalid_argument(at + ": must map method names to space-separated scopes");
      for (const auto& [m, s] : v.items()) {
        if (!s.is_string()) throw std::invalid_argument(at + "." + m + ": must be a string of scopes");
        c.method_scopes[m] = s;
      }
    } else {
      throw std::invalid_argument(at + ": unknown member");
    }
  }
  return c;
}

ProtectedResource::ProtectedResource(ResourceConfig config, const MockAuthorizationServer& as, RequestLog& log)
    : config_(std::move(config)), as_(as), log_(log) {}

void ProtectedResource::set_endpoint(const std::string& url, const std::string& origin, const std::string& path) {
  endpoint_ = url;
  origin_ = origin;
  path_ = path;
}

std::optional<std::string> ProtectedResource::prm_path(const std::string& where) const {
  if (config_.as_metadata_at_origin ||
      std::find(config_.prm_at.begin(), config_.prm_at.end(), where) == config_.prm_at.end())
    return std::nullopt;
  if (where == "header") return std::string(kHeaderPrmPath);
  if (where == "path") return "/.well-known/oauth-protected-resource" + path_;
  return std::string("/.well-known/oauth-protected-resource");
}

std::string ProtectedResource::challenge_url() const {
  for (const char* w : {"header", "path", "root"})
    if (auto p = prm_path(w)) return origin_ + *p;
  // Nothing served: the header still names the path-based location (which answers 404).
  return origin_ + "/.well-known/oauth-protected-resource" + path_;
}

json ProtectedResource::prm() const {
  json doc = {{"resource", config_.prm_resource.empty() ? endpoint_ : config_.prm_resource},
              {"authorization_servers", {as_.issuer()}},
              {"bearer_methods_supported", {"header"}}};
  if (!config_.scopes_supported.is_null()) doc["scopes_supported"] = config_.scopes_supported;
  return doc;
}

bool ProtectedResource::serve_metadata(const httplib::Request& req, httplib::Response& res) {
  json rec = {{"server", "rs"}, {"method", req.method}, {"path", req.path}, {"headers", recorded_headers(req)},
              {"well_known", req.path.rfind("/.well-known/", 0) == 0}};
  std::optional<std::string> which;
  for (const char* w : {"header", "path", "root"})
    if (prm_path(w) == std::optional<std::string>(req.path)) which = w;
  if (config_.as_metadata_at_origin && req.path == "/.well-known/oauth-authorization-server" && req.method == "GET") {
    json doc = as_.metadata();
    doc["issuer"] = origin_;
    rec["document"] = "as-at-rs";
    res.status = 200;
    res.set_content(doc.dump(), "application/json");
  } else if (which && req.method == "GET") {
    rec["document"] = "prm-" + *which;
    res.status = 200;
    res.set_content(prm().dump(), "application/json");
  } else {
    res.status = 404;
    res.set_content(R"({"error":"not_found"})", "application/json");
  }
  rec["status"] = res.status;
  log_.add(std::move(rec));
  return true;
}

bool ProtectedResource::admit(const httplib::Request& req, httplib::Response& res) {
  std::string method = req.method == "POST" ? mcp_method(req.body) : "";
  json rec = {{"server", "rs"}, {"method", req.method}, {"path", req.path}, {"headers", recorded_headers(req)},
              {"mcp_method", method}};
  // A token anywhere in the URL is logged (AUTH-68) and never honoured.
  bool in_query = req.has_param("access_token");
  if (!in_query)
    for (const auto& t : as_.issued_values())
      if (!t.empty() && req.target.find(t) != std::string::npos) in_query = true;
  rec["token_in_query"] = in_query;

  std::string authz = req.get_header_value("Authorization");
  std::optional<std::string> token;
  if (authz.size() > 7 && std::equal(authz.begin(), authz.begin() + 7, "bearer ", [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
      }))
    token = authz.substr(7);
  rec["token"] = token ? "header" : (authz.empty() ? "none" : "other-scheme");

  auto challenge = [&](int status, std::vector<std::pair<std::string, std::string>> params, const std::string& why) {
    if (config_.challenge_resource_metadata && !config_.as_metadata_at_origin)
      params.insert(params.begin(), {"resource_metadata", challenge_url()});
    res.status = status;
    if (config_.challenge_variant) {
      params.insert(params.begin(), {"realm", "mcpspec"});
      res.set_header("WWW-Authenticate",
                     write_challenge("DPoP", {{"algs", "ES256"}}) + ", " + write_challenge("bearer", params));
    } else {
      res.set_header("WWW-Authenticate", write_challenge("Bearer", params));
    }
    res.set_content(json{{"error", why}}.dump(), "application/json");
    rec["status"] = status;
    rec["admitted"] = false;
    rec["refused"] = why;
    log_.add(rec);
    return false;
  };

  bool open = config_.open_initialize && (method == "initialize" || method.rfind("notifications/", 0) == 0 ||
                                          method == "response" || req.method == "DELETE");
  if (open && !token) {
    rec["admitted"] = true;
    log_.add(rec);
    return true;
  }
  if (!token) {
    std::vector<std::pair<std::string, std::string>> p;
    if (!config_.challenge_scope.empty()) p.push_back({"scope", config_.challenge_scope});
    return challenge(401, p, "no access token in the Authorization header");
  }
  TokenCheck check = as_.check_access_token(*token, endpoint_);
  if (!check.ok) {
    rec["token_error"] = check.error;
    return challenge(401, {{"error", "invalid_token"}, {"error_description", check.error}}, "invalid token: " + check.error);
  }
  rec["client_id"] = check.client_id;
  auto need = config_.method_scopes.find(method);
  if (need == config_.method_scopes.end()) need = config_.method_scopes.find("*");
  if (need != config_.method_scopes.end()) {
    std::vector<std::string> missing;
    for (const auto& s : scope_set(need->second))
      if (!check.scopes.count(s)) missing.push_back(s);
    if (!missing.empty())
      return challenge(403,
                       {{"error", "insufficient_scope"},
                        {"scope", need->second},
                        {"error_description", fmt::format("{} needs scope {}", method, need->second)}},
                       "insufficient scope for " + method);
  }
  rec["admitted"] = true;
  log_.add(rec);
  return true;
}

}  // namespace mcpspec::auth
