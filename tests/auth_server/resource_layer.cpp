#include "resource_layer.hpp"

#include "introspection.hpp"

#include <nlohmann/json.hpp>

namespace authtest {

namespace {

std::string challenge(const Options& o, const Urls& urls, const std::string& error, const std::string& scope) {
  std::string out = "Bearer realm=\"mcpspec-auth-testserver\"";
  if (!o.fault("no-resource-metadata")) out += ", resource_metadata=\"" + urls.prm + "\"";
  if (!scope.empty() && !o.fault("challenge-no-scope")) out += ", scope=\"" + scope + "\"";
  if (!error.empty()) out += ", error=\"" + error + "\"";
  return out;
}

void refuse(httplib::Response& res, int status, const std::string& header, const Options& o) {
  res.status = status;
  if (!header.empty() && !o.fault("no-www-authenticate")) res.set_header("WWW-Authenticate", header);
  nlohmann::json body = {{"error", status == 403 ? "insufficient_scope" : status == 400 ? "invalid_request" : "unauthorized"}};
  // The fault: the refusal still carries data, as if the request had run.
  if (o.fault("result-in-401")) body = {{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"leaked", true}}}};
  res.set_content(body.dump(), "application/json");
}

}  // namespace

std::string needed_scope(const std::string& method, const std::string& tool) {
  return method == "tools/call" && tool == "secret" ? "mcp:admin" : "mcp:read";
}

bool authorize(const httplib::Request& req, httplib::Response& res, const std::string& scope, const Options& o,
               const Urls& urls) {
  if (o.fault("no-401")) return true;
  std::string token;
  const auto fields = req.get_header_value_count("Authorization");
  if (fields > 1) {
    refuse(res, 400, challenge(o, urls, "invalid_request", ""), o);
    return false;
  }
  if (fields == 1) {
    const std::string h = req.get_header_value("Authorization");
    if (h.rfind("Bearer ", 0) != 0 || h.size() == 7 || h.find(' ', 7) != std::string::npos) {
      refuse(res, h.rfind("Bearer", 0) == 0 ? 400 : 401, challenge(o, urls, "invalid_request", ""), o);
      return false;
    }
    token = h.substr(7);
  } else if (o.fault("accept-query-token") && req.has_param("access_token")) {
    token = req.get_param_value("access_token");
  } else {
    refuse(res, 401, challenge(o, urls, "", "mcp:read"), o);
    return false;
  }
  const std::string bad_token_error = o.fault("no-invalid-token-error") ? "" : "invalid_token";
  auto it = o.tokens.find(token);
  std::optional<TokenInfo> found;
  if (it != o.tokens.end()) found = it->second;
  else if (!o.trusted_issuer.empty()) found = introspect(token, o, urls.resource);
  if (!found) {
    if (o.fault("accept-invalid-token")) return true;
    refuse(res, 401, challenge(o, urls, bad_token_error, "mcp:read"), o);
    return false;
  }
  const TokenInfo& t = *found;
  if ((t.expired && !o.fault("accept-expired-token")) ||
      (!t.audience.empty() && t.audience != urls.resource && !o.fault("accept-other-audience"))) {
    refuse(res, 401, challenge(o, urls, bad_token_error, "mcp:read"), o);
    return false;
  }
  if (!t.scopes.count(scope)) {
    if (o.fault("low-scope-401")) refuse(res, 401, challenge(o, urls, bad_token_error, scope), o);
    else if (o.fault("403-without-error")) refuse(res, 403, challenge(o, urls, "", scope), o);
    else if (o.fault("403-wrong-scope")) refuse(res, 403, challenge(o, urls, "insufficient_scope", "mcp:read"), o);
    else refuse(res, 403, challenge(o, urls, "insufficient_scope", scope), o);
    return false;
  }
  return true;
}

}  // namespace authtest
