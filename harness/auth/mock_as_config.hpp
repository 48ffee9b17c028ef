#pragma once
// What a scenario can tune in the mock authorization server (docs/authorization.md, "The mock
// authorization server"): which discovery documents exist and what they say, how /authorize
// answers (state, iss), what /token issues, how clients may register. Read from the scenario's
// `transport_options.auth.as` object by `parse_as_config`, which names any bad member.
#include "harness/auth/jws_key.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcpspec::auth {

struct PreRegistered {
  std::string client_id, client_secret;
  std::vector<std::string> redirect_uris;  // empty: any loopback or https URI is accepted
};

struct AsConfig {
  // The issuer is http://127.0.0.1:PORT + issuer_path ("" or "/tenant1").
  std::string issuer_path;
  // Which discovery documents are served: "oauth" (RFC 8414), "oidc" (OpenID Connect Discovery;
  // with a path issuer, the path-inserted form), "oidc-appended" (path issuer only:
  // <issuer>/.well-known/openid-configuration). Every other well-known answers 404.
  std::vector<std::string> metadata = {"oauth"};
  // The document's "issuer" member; empty: the true issuer. (AUTH-37 serves another one.)
  std::string issuer_claim;
  // null: the member is left out (AUTH-43).
  std::optional<nlohmann::json> code_challenge_methods = nlohmann::json::array({"S256"});
  bool registration_endpoint = true;
  bool cimd_supported = false;
  nlohmann::json token_endpoint_auth_methods = nlohmann::json::array({"none", "client_secret_basic", "client_secret_post"});
  std::optional<bool> iss_parameter_supported;  // null: the member is absent
  nlohmann::json scopes_supported;              // null: absent
  // /authorize: "echo" (correct), "change" (another value), "omit"
  std::string state = "echo";
  // /authorize: "correct", "wrong" (another origin), "omit", "trailing-slash" (issuer + "/")
  std::string iss = "correct";
  // /token
  int expires_in = 3600;
  bool refresh_tokens = true;
  JwsAlg alg = JwsAlg::RS256;
  std::vector<PreRegistered> pre_registered;
  // Scopes a token may carry; requested scopes outside it are left out of the grant (the consent a
  // user would withhold). null: whatever is requested.
  nlohmann::json grantable_scopes;
  // The port to listen on (not a scenario member: `mcpspec auth-server --port` sets it). 0: any free
  // port, as every scenario's server has.
  int port = 0;
  // TLS mode (not a scenario member: `run --tls` sets it): the PEM files the server serves https
  // with. Empty: plain http.
  std::string tls_cert, tls_key;
};

// Throws std::invalid_argument naming the member ("transport_options.auth.as.state: ...").
AsConfig parse_as_config(const nlohmann::json& j, const std::string& where);

}  // namespace mcpspec::auth
