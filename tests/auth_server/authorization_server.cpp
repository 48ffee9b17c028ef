#include "authorization_server.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace authtest {

using nlohmann::json;

namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, std::vector<std::string>> redirect_uris;  // client_id -> registered URIs
  int next = 1;
};

void json_error(httplib::Response& res, int status, const std::string& error) {
  res.status = status;
  res.set_content(json{{"error", error}}.dump(), "application/json");
}

}  // namespace

void add_authorization_server(httplib::Server& server, const Options& o, const Urls& urls) {
  auto registry = std::make_shared<Registry>();
  server.Get("/.well-known/oauth-authorization-server", [&o, urls](const httplib::Request&, httplib::Response& res) {
    json doc = {{"issuer", o.fault("as-wrong-issuer") ? urls.origin + "/elsewhere" : urls.origin},
                {"authorization_endpoint", urls.origin + "/authorize"},
                {"token_endpoint", urls.origin + "/token"},
                {"registration_endpoint", urls.origin + "/register"},
                {"response_types_supported", {"code"}},
                {"grant_types_supported", {"authorization_code", "refresh_token"}},
                {"token_endpoint_auth_methods_supported", {"none"}},
                {"scopes_supported", {"mcp:read", "mcp:admin"}},
                {"code_challenge_methods_supported", o.fault("as-no-s256") ? json{"plain"} : json{"S256"}}};
    if (!o.fault("as-no-cimd")) doc["client_id_metadata_document_supported"] = true;
    // RFC 9207: /authorize puts iss in its redirects, so the metadata says so (AUTH-98).
    if (!o.fault("as-iss-unadvertised")) doc["authorization_response_iss_parameter_supported"] = true;
    res.set_content(doc.dump(), "application/json");
  });
  server.Post("/register", [registry](const httplib::Request& req, httplib::Response& res) {
    json body = json::parse(req.body, nullptr, false);
    if (!body.is_object() || !body.contains("redirect_uris") || !body["redirect_uris"].is_array())
      return json_error(res, 400, "invalid_client_metadata");
    std::vector<std::string> uris;
    for (const auto& u : body["redirect_uris"])
      if (u.is_string()) uris.push_back(u);
    std::lock_guard<std::mutex> lock(registry->mu);
    const std::string id = "client-" + std::to_string(registry->next++);
    registry->redirect_uris[id] = uris;
    body["client_id"] = id;
    res.status = 201;
    res.set_content(body.dump(), "application/json");
  });
  server.Get("/authorize", [registry, &o, urls](const httplib::Request& req, httplib::Response& res) {
    const std::string client = req.get_param_value("client_id"), redirect = req.get_param_value("redirect_uri");
    bool allowed = false;
    {
      std::lock_guard<std::mutex> lock(registry->mu);
      auto it = registry->redirect_uris.find(client);
      if (it != registry->redirect_uris.end())
        for (const auto& u : it->second)
          allowed = allowed || u == redirect || (o.fault("as-loose-redirect") && redirect.rfind(u, 0) == 0);
    }
    if (!allowed) return json_error(res, 400, "invalid_request");
    const std::string sep = redirect.find('?') == std::string::npos ? "?" : "&";
    res.status = 302;
    res.set_header("Location", redirect + sep + "code=test-code&state=" + req.get_param_value("state") +
                                   (o.fault("as-no-iss") ? "" : "&iss=" + httplib::detail::encode_query_param(urls.origin)));
  });
  server.Post("/token", [](const httplib::Request&, httplib::Response& res) { json_error(res, 400, "invalid_grant"); });
}

}  // namespace authtest
