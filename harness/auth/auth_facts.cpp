#include "harness/auth/auth_facts.hpp"

namespace mcpspec::auth {

using nlohmann::json;

namespace {

// A short name for a discovery request: which document it asked for, from which server.
std::string discovery_name(const json& r) {
  std::string server = r.value("server", "");
  if (r.contains("document")) {
    std::string d = r["document"];
    return server == "as" ? "as-" + d : d;  // RS documents are named already: "prm-<where>", "as-at-rs"
  }
  std::string path = r.value("path", "");
  if (server == "rs") {
    if (path.rfind("/.well-known/oauth-protected-resource", 0) == 0)
      return path == "/.well-known/oauth-protected-resource" ? "prm-root-404" : "prm-path-404";
    if (path.rfind("/.well-known/", 0) == 0) return "rs-guess:" + path;  // AS metadata looked for on the RS
    return "rs-404:" + path;
  }
  if (path.rfind("/.well-known/oauth-authorization-server", 0) == 0) return "as-oauth-404:" + path;
  if (path.find("openid-configuration") != std::string::npos) return "as-oidc-404:" + path;
  return "as-404:" + path;
}

}  // namespace

json auth_facts(const json& log) {
  json discovery = json::array(), authorize = json::array(), token = json::array(), reg = json::array();
  json rs = json::array(), after_token = json::array();
  bool token_issued = false, token_in_url = false, authorized_call = false, prm_served = false, as_served = false;
  std::string text;
  for (const auto& r : log) {
    std::string server = r.value("server", ""), path = r.value("path", "");
    bool is_mcp = server == "rs" && r.contains("mcp_method");
    if (r.value("token_in_query", false) || (r.contains("query") && r["query"].contains("access_token")))
      token_in_url = true;
    if (!is_mcp && r.value("method", "") == "GET" && (r.value("well_known", false) || r.contains("document"))) {
      std::string n = discovery_name(r);
      if (r.contains("document")) (r["document"].get<std::string>().rfind("prm-", 0) == 0 ? prm_served : as_served) = true;
      discovery.push_back(n);
      text += (text.empty() ? "" : " ") + n;
    } else if (server == "as" && path.size() >= 10 && path.compare(path.size() - 10, 10, "/authorize") == 0) {
      json a = r.value("query", json::object());
      a["status"] = r.value("status", 0);
      if (r.contains("refused")) a["refused"] = r["refused"];
      if (r.contains("redirect_registered")) a["redirect_registered"] = r["redirect_registered"];
      if (r.contains("client_known")) a["client_known"] = r["client_known"];
      if (r.contains("cimd")) a["cimd"] = r["cimd"];
      authorize.push_back(a);
    } else if (server == "as" && path.size() >= 6 && path.compare(path.size() - 6, 6, "/token") == 0) {
      json t = r.value("form", json::object());
      for (const char* k : {"client_auth", "status", "refused", "pkce_ok", "pkce_method", "verifier_syntax_ok",
                            "authorize_resource", "issued", "client_id"})
        if (r.contains(k)) t[std::string("as_") + k] = r[k];
      token.push_back(t);
      if (r.value("issued", false)) token_issued = true;
    } else if (server == "as" && path.size() >= 9 && path.compare(path.size() - 9, 9, "/register") == 0) {
      reg.push_back(r.value("body", json()));
    } else if (is_mcp) {
      json m = {{"method", r.value("method", "")}, {"mcp_method", r["mcp_method"]}, {"token", r.value("token", "")},
                {"token_in_query", r.value("token_in_query", false)}, {"admitted", r.value("admitted", false)}};
      if (r.contains("status")) m["status"] = r["status"];
      if (r.contains("token_error")) m["token_error"] = r["token_error"];
      rs.push_back(m);
      if (token_issued) after_token.push_back(m);
      if (r.value("admitted", false) && r.value("token", "") == "header") authorized_call = true;
    }
  }
  json reached = {{"prm", prm_served},
                  {"as_metadata", as_served},
                  {"authorize", !authorize.empty()},
                  {"token", !token.empty()},
                  {"token_issued", token_issued},
                  {"authorized_call", authorized_call}};
  return {{"discovery", discovery}, {"discovery_text", text}, {"authorize", authorize}, {"token", token},
          {"register", reg}, {"rs", rs}, {"after_token", after_token}, {"token_in_url", token_in_url},
          {"reached", reached}};
}

}  // namespace mcpspec::auth
