#include "harness/auth/mock_as_config.hpp"

#include <stdexcept>

namespace mcpspec::auth {

namespace {

std::string one_of(const nlohmann::json& j, const std::string& where, std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (j.is_string() && j.get<std::string>() == a) return a;
    list += std::string(list.empty() ? "" : ", ") + a;
  }
  throw std::invalid_argument(where + ": must be one of " + list);
}

std::vector<std::string> strings(const nlohmann::json& j, const std::string& where) {
  if (!j.is_array()) throw std::invalid_argument(where + ": must be an array of strings");
  std::vector<std::string> out;
  for (const auto& s : j) {
    if (!s.is_string()) throw std::invalid_argument(where + ": must be an array of strings");
    out.push_back(s);
  }
  return out;
}

}  // namespace

AsConfig parse_as_config(const nlohmann::json& j, const std::string& where) {
  AsConfig c;
  if (j.is_null()) return c;
  if (!j.is_object()) throw std::invalid_argument(where + ": must be an object");
  for (const auto& [key, v] : j.items()) {
    std::string at = where + "." + key;
    if (key == "issuer_path") {
      if (!v.is_string() || (!v.get<std::string>().empty() && (v.get<std::string>()[0] != '/' || v.get<std::string>().back() == '/')))
        throw std::invalid_argument(at + ": must be \"\" or a path like \"/tenant1\" (no trailing slash)");
      c.issuer_path = v;
    } else if (key == "metadata") {
      c.metadata.clear();
      for (const auto& m : strings(v, at)) c.metadata.push_back(one_of(m, at, {"oauth", "oidc", "oidc-appended"}));
    } else if (key == "issuer_claim") {
      if (!v.is_string()) throw std::invalid_argument(at + ": must be a string");
      c.issuer_claim = v;
    } else if (key == "code_challenge_methods_supported") {
      if (v.is_null()) c.code_challenge_methods.reset();
      else c.code_challenge_methods = nlohmann::json(strings(v, at));
    } else if (key == "registration_endpoint" || key == "cimd_supported" || key == "refresh_tokens") {
      if (!v.is_boolean()) throw std::invalid_argument(at + ": must be true or false");
      (key == "registration_endpoint" ? c.registration_endpoint : key == "cimd_supported" ? c.cimd_supported : c.refresh_tokens) = v;
    } else if (key == "token_endpoint_auth_methods_supported") {
      c.token_endpoint_auth_methods = nlohmann::json(strings(v, at));
    } else if (key == "iss_parameter_supported") {
      if (!v.is_null() && !v.is_boolean()) throw std::invalid_argument(at + ": must be true, false or null");
      if (v.is_boolean()) c.iss_parameter_supported = v.get<bool>();
    } else if (key == "grantable_scopes") {
      c.grantable_scopes = v.is_null() ? nlohmann::json() : nlohmann::json(strings(v, at));
    } else if (key == "scopes_supported") {
      c.scopes_supported = v.is_null() ? nlohmann::json() : nlohmann::json(strings(v, at));
    } else if (key == "state") {
      c.state = one_of(v, at, {"echo", "change", "omit"});
    } else if (key == "iss") {
      c.iss = one_of(v, at, {"correct", "wrong", "omit", "trailing-slash"});
    } else if (key == "expires_in") {
      if (!v.is_number_integer() || v.get<int>() < 1 || v.get<int>() > 86400)
        throw std::invalid_argument(at + ": must be an integer from 1 to 86400");
      c.expires_in = v;
    } else if (key == "alg") {
      auto a = alg_from_name(v.is_string() ? v.get<std::string>() : "");
      if (!a) throw std::invalid_argument(at + ": must be \"RS256\" or \"ES256\"");
      c.alg = *a;
    } else if (key == "pre_registered") {
      if (!v.is_array()) throw std::invalid_argument(at + ": must be an array of clients");
      for (std::size_t i = 0; i < v.size(); ++i) {
        std::string ai = at + "[" + std::to_string(i) + "]";
        const auto& e = v[i];
        if (!e.is_object() || !e.contains("client_id") || !e["client_id"].is_string())
          throw std::invalid_argument(ai + ": must be an object with a string client_id");
        PreRegistered p;
        p.client_id = e["client_id"];
        if (e.contains("client_secret")) {
          if (!e["client_secret"].is_string()) throw std::invalid_argument(ai + ".client_secret: must be a string");
          p.client_secret = e["client_secret"];
        }
        if (e.contains("redirect_uris")) p.redirect_uris = strings(e["redirect_uris"], ai + ".redirect_uris");
        c.pre_registered.push_back(p);
      }
    } else {
      throw std::invalid_argument(at + ": unknown member");
    }
  }
  if (c.metadata.empty()) throw std::invalid_argument(where + ".metadata: must name at least one document");
  return c;
}

}  // namespace mcpspec::auth
