// Mock-AS mode: the server under test was started trusting the harness's own authorization server
// (`run --server CMD --transport http --auth`), so the checks mint their tokens there instead of
// asking the user: the token-mode tokens (valid, low-scope, other audience, expired) and the ones
// only an AS under our control can make (no audience, an audience list without the resource, a
// foreign issuer's key, the trusted key with another issuer). Every minted token is recorded in the
// mock AS's registry, so its introspection endpoint answers for it like for one its /token issued.
#include "harness/auth/jws_key.hpp"
#include "harness/auth/jwt.hpp"
#include "harness/auth/mock_as.hpp"
#include "harness/auth/pkce.hpp"
#include "harness/auth/www_authenticate.hpp"
#include "harness/authcheck/auth_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <set>
#include <sstream>

namespace mcpspec::authcheck {

using nlohmann::json;

namespace {

// The issuer of the foreign tokens: a well-formed issuer no server under test is told to trust.
constexpr const char* kForeignIssuer = "https://foreign-issuer.mcpspec.invalid";
constexpr const char* kOtherAudience = "https://other-resource.mcpspec.invalid/mcp";

long long now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& w : v) out += (out.empty() ? "" : " ") + w;
  return out;
}

// RFC 9068 claims of a token for `audience` (null: no aud claim) holding `scopes`.
json claims_for(const std::string& issuer, const json& audience, const std::vector<std::string>& scopes,
                long long exp) {
  const long long now = now_seconds();
  json c = {{"iss", issuer},   {"sub", "mcpspec-auth-check"}, {"client_id", "mcpspec-auth-check"},
            {"iat", std::min(now, exp - 60)}, {"exp", exp}, {"jti", auth::random_token(12)}};
  if (!audience.is_null()) c["aud"] = audience;
  if (!scopes.empty()) c["scope"] = joined(scopes);
  return c;
}

}  // namespace

void mint_tokens(AuthRun& run) {
  auth::MockAuthorizationServer* as = run.o.mock_as;
  if (!as) return;
  // The audience: what PRM says the resource is (AUTH-15's control), else the endpoint itself.
  run.resource = run.prm.is_object() && run.prm.contains("resource") && run.prm["resource"].is_string()
                     ? run.prm["resource"].get<std::string>()
                     : run.o.endpoint;
  // Every scope the server names (PRM's scopes_supported, the 401's scope); the low-scope token
  // holds only the first of them (AUTH-CHECKLIST, AUTH-20's method).
  std::vector<std::string> all;
  if (run.prm.is_object() && run.prm.contains("scopes_supported") && run.prm["scopes_supported"].is_array())
    for (const auto& s : run.prm["scopes_supported"])
      if (s.is_string() && std::find(all.begin(), all.end(), s.get<std::string>()) == all.end()) all.push_back(s);
  if (run.bearer)
    for (const auto& s : words(run.bearer->param("scope").value_or("")))
      if (std::find(all.begin(), all.end(), s) == all.end()) all.push_back(s);
  run.low_scopes = all.empty() ? all : std::vector<std::string>{all.front()};

  const std::string issuer = as->issuer();
  const long long later = now_seconds() + 3600;
  auto mint = [&](const json& audience, const std::vector<std::string>& scopes, long long exp) {
    return as->mint_issued(claims_for(issuer, audience, scopes, exp));
  };
  // A token the user gave wins over the minted one of its kind.
  if (run.o.token.empty()) run.o.token = mint(run.resource, all, later);
  if (run.o.low_scope_token.empty() && all.size() > 1) run.o.low_scope_token = mint(run.resource, run.low_scopes, later);
  if (run.o.other_audience_token.empty()) run.o.other_audience_token = mint(kOtherAudience, all, later);
  if (run.o.expired_token.empty()) run.o.expired_token = mint(run.resource, all, now_seconds() - 600);

  // Signed by a key the server was never told about, naming another issuer (AUTH-17).
  static const auth::JwsKey foreign = auth::JwsKey::generate(auth::JwsAlg::ES256, "mcpspec-foreign-" + auth::random_token(6));
  run.minted_negatives = {
      {"a token without an aud claim", "AUTH-15", mint(json(), all, later)},
      {"a token whose aud list lacks the resource", "AUTH-15", mint(json::array({kOtherAudience, issuer}), all, later)},
      {"a token of a foreign issuer (its own key, iss " + std::string(kForeignIssuer) + ")", "AUTH-17",
       auth::sign_jwt(claims_for(kForeignIssuer, run.resource, all, later), foreign)},
      {"a token signed by the trusted key but naming iss " + std::string(kForeignIssuer), "AUTH-17",
       as->mint_issued(claims_for(kForeignIssuer, run.resource, all, later))},
  };
}

void check_mock_as_rows(AuthRun& run) {
  auto check = run.start("auth/rs/minted-tokens",
                         "Tokens minted by the harness's AS: wrong or missing audience, foreign issuer, scope rules",
                         {"AUTH-15", "AUTH-17", "AUTH-21"});
  if (!run.o.mock_as) {
    check.skip("mock-AS mode: start the server with `--server CMD --transport http --auth`, so it trusts the harness's "
               "authorization server (MCP_CONFORMANCE_AUTH_SERVER_URL) and the checks can mint its tokens");
  } else if (!run.token_accepted) {
    check.skip("the minted valid token was not accepted (auth/rs/valid-token): the server does not trust the "
               "harness's authorization server, so no minted token can be judged");
  } else {
    for (const auto& [what, row, token] : run.minted_negatives) {
      ProbeResponse r = run.send_protected(check, "Bearer " + token);
      if (ok_with_result(r))
        check.violation(row, fmt::format("{} was accepted ({} answered {})", what, label(run.protected_body), r.status));
      else if (!r.reached || r.status != 401)
        check.finding(Level::Should, {row}, what + " got " + status_text(r) + ", not 401");
    }
    // AUTH-21: the 403's scope is what the operation needs. A token holding the low-scope token's
    // scopes plus the challenged ones (the approach 2025-11-25 recommends) must then be served.
    for (const auto& [body, header] : run.scope_refusals) {
      if (!run.applies("AUTH-21")) break;
      auto parsed = auth::parse_www_authenticate(header);
      const auth::Challenge* b = auth::find_challenge(parsed.challenges, "Bearer");
      if (!b || !b->param("scope")) continue;  // judged by auth/rs/insufficient-scope (AUTH-20)
      std::vector<std::string> scopes = run.low_scopes;
      for (const auto& s : words(*b->param("scope")))
        if (std::find(scopes.begin(), scopes.end(), s) == scopes.end()) scopes.push_back(s);
      const std::string token =
          run.o.mock_as->mint_issued(claims_for(run.o.mock_as->issuer(), run.resource, scopes, now_seconds() + 3600));
      McpPost m = run.mcp();
      ProbeResponse init = m.open(check, "Bearer " + token);
      ProbeResponse r = init.reached && init.status / 100 == 2 ? m.post(check, body, "Bearer " + token) : init;
      if (!(r.reached && r.status / 100 == 2))
        check.violation("AUTH-21", fmt::format("{} was refused with scope=\"{}\", but a token holding \"{}\" got {}",
                                               label(body), *b->param("scope"), joined(scopes), status_text(r)),
                        r.header("www-authenticate"));
    }
  }
  run.finish(check);
}

}  // namespace mcpspec::authcheck
