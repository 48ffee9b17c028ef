// The mock authorization server and the protected-endpoint gate (harness/auth/mock_as.*,
// protected_resource.*), driven over real HTTP on 127.0.0.1: each refusal a client under test can
// provoke (unregistered redirect URI, wrong PKCE verifier, reused code, rotated refresh token, token
// for another audience, missing scope, token in the query) is shown to happen, next to the request
// that succeeds.
#include "harness/auth/form_urlencoded.hpp"
#include "harness/auth/mock_as.hpp"
#include "harness/auth/pkce.hpp"
#include "harness/auth/protected_resource.hpp"
#include "harness/auth/www_authenticate.hpp"

#include <catch2/catch.hpp>
#include <httplib.h>

using namespace mcpspec::auth;
using nlohmann::json;

namespace {

const std::string kRedirect = "http://localhost:3000/callback";

std::map<std::string, std::string> query_of(const std::string& location) {
  std::map<std::string, std::string> out;
  auto q = location.find('?');
  if (q == std::string::npos) return out;
  for (const auto& [k, v] : parse_form(location.substr(q + 1)).all) out[k] = v;
  return out;
}

struct Flow {
  MockAuthorizationServer& as;
  httplib::Client http;
  std::string client_id;
  explicit Flow(MockAuthorizationServer& s) : as(s), http(s.origin()) {
    http.set_read_timeout(std::chrono::seconds(10));
    auto r = http.Post("/register", json{{"redirect_uris", {kRedirect}}, {"token_endpoint_auth_method", "none"}}.dump(),
                       "application/json");
    REQUIRE(r);
    REQUIRE(r->status == 201);
    client_id = json::parse(r->body)["client_id"];
  }
  // GET /authorize; returns the response.
  httplib::Result authorize(const std::string& challenge, const std::string& redirect = kRedirect,
                            const std::string& resource = "http://127.0.0.1:1/mcp") {
    return http.Get("/authorize?" + write_form({{"response_type", "code"}, {"client_id", client_id},
                                                {"redirect_uri", redirect}, {"state", "s1"},
                                                {"code_challenge", challenge}, {"code_challenge_method", "S256"},
                                                {"resource", resource}}));
  }
  httplib::Result token(std::vector<std::pair<std::string, std::string>> form) {
    form.push_back({"client_id", client_id});
    return http.Post("/token", write_form(form), "application/x-www-form-urlencoded");
  }
};

}  // namespace

TEST_CASE("mock AS: bad scenario settings are refused naming the member", "[auth]") {
  CHECK_THROWS_WITH(parse_as_config(json{{"state", "sometimes"}}, "as"), Catch::Contains("as.state: must be one of"));
  CHECK_THROWS_WITH(parse_as_config(json{{"colour", 1}}, "as"), Catch::Contains("as.colour: unknown member"));
  CHECK_THROWS_WITH(parse_as_config(json{{"issuer_path", "tenant/"}}, "as"), Catch::Contains("as.issuer_path"));
  CHECK_THROWS_WITH(parse_as_config(json{{"metadata", json::array()}}, "as"), Catch::Contains("as.metadata"));
  CHECK_THROWS_WITH(parse_resource_config(json{{"prm_at", {"everywhere"}}}, "rs"), Catch::Contains("rs.prm_at"));
  CHECK_THROWS_WITH(parse_resource_config(json{{"method_scopes", {{"tools/call", 3}}}}, "rs"),
                    Catch::Contains("rs.method_scopes.tools/call"));
}

TEST_CASE("mock AS: discovery documents only where configured, issuer exact", "[auth]") {
  RequestLog log;
  AsConfig cfg;
  cfg.issuer_path = "/tenant1";
  cfg.metadata = {"oidc-appended"};
  MockAuthorizationServer as(cfg, log);
  as.start();
  httplib::Client http(as.origin());
  CHECK(http.Get("/.well-known/oauth-authorization-server/tenant1")->status == 404);
  CHECK(http.Get("/.well-known/openid-configuration/tenant1")->status == 404);
  auto doc = http.Get("/tenant1/.well-known/openid-configuration");
  REQUIRE(doc->status == 200);
  json m = json::parse(doc->body);
  CHECK(m["issuer"] == as.issuer());
  CHECK(m["code_challenge_methods_supported"] == json::array({"S256"}));
  CHECK(m["authorization_endpoint"] == as.issuer() + "/authorize");
  json entries = log.entries();
  REQUIRE(entries.size() == 3);
  CHECK(entries[2]["document"] == "oidc-appended");
  as.stop();
}

TEST_CASE("mock AS: authorization code with PKCE, single use, bound, refresh rotation", "[auth]") {
  RequestLog log;
  MockAuthorizationServer as(AsConfig{}, log);
  as.start();
  Flow f(as);
  std::string verifier = new_verifier();

  // An unregistered redirect URI is never redirected to.
  auto bad = f.authorize(s256_challenge(verifier), "http://localhost:3999/elsewhere");
  CHECK(bad->status == 400);
  CHECK_FALSE(bad->has_header("Location"));

  auto ok = f.authorize(s256_challenge(verifier));
  REQUIRE(ok->status == 302);
  auto back = query_of(ok->get_header_value("Location"));
  CHECK(back["state"] == "s1");
  CHECK(back["iss"] == as.issuer());
  REQUIRE(back.count("code"));

  // A wrong verifier is refused, and burns the code.
  auto wrong = f.token({{"grant_type", "authorization_code"}, {"code", back["code"]}, {"redirect_uri", kRedirect},
                        {"code_verifier", new_verifier()}, {"resource", "http://127.0.0.1:1/mcp"}});
  CHECK(wrong->status == 400);
  CHECK(json::parse(wrong->body)["error"] == "invalid_grant");
  auto reused = f.token({{"grant_type", "authorization_code"}, {"code", back["code"]}, {"redirect_uri", kRedirect},
                         {"code_verifier", verifier}, {"resource", "http://127.0.0.1:1/mcp"}});
  CHECK(reused->status == 400);

  // A fresh code with the right verifier, but another resource than at /authorize: invalid_target.
  back = query_of(f.authorize(s256_challenge(verifier))->get_header_value("Location"));
  auto other = f.token({{"grant_type", "authorization_code"}, {"code", back["code"]}, {"redirect_uri", kRedirect},
                        {"code_verifier", verifier}, {"resource", "http://127.0.0.1:2/mcp"}});
  CHECK(json::parse(other->body)["error"] == "invalid_target");

  back = query_of(f.authorize(s256_challenge(verifier))->get_header_value("Location"));
  auto good = f.token({{"grant_type", "authorization_code"}, {"code", back["code"]}, {"redirect_uri", kRedirect},
                       {"code_verifier", verifier}, {"resource", "http://127.0.0.1:1/mcp"}});
  REQUIRE(good->status == 200);
  CHECK(good->get_header_value("Cache-Control") == "no-store");
  json tokens = json::parse(good->body);
  std::string access = tokens["access_token"];
  CHECK(as.check_access_token(access, "http://127.0.0.1:1/mcp").ok);
  CHECK(as.check_access_token(access, "http://127.0.0.1:2/mcp").error.find("aud") == 0);
  CHECK_FALSE(as.check_access_token(access + "x", "http://127.0.0.1:1/mcp").ok);

  auto refreshed = f.token({{"grant_type", "refresh_token"}, {"refresh_token", tokens["refresh_token"]},
                            {"resource", "http://127.0.0.1:1/mcp"}});
  REQUIRE(refreshed->status == 200);
  CHECK(json::parse(refreshed->body)["refresh_token"] != tokens["refresh_token"]);
  auto rotated = f.token({{"grant_type", "refresh_token"}, {"refresh_token", tokens["refresh_token"]}});
  CHECK(rotated->status == 400);

  auto intro = f.http.Post("/introspect", write_form({{"token", access}}), "application/x-www-form-urlencoded");
  CHECK(json::parse(intro->body)["active"] == true);
  auto none = f.http.Post("/introspect", write_form({{"token", "nonsense"}}), "application/x-www-form-urlencoded");
  CHECK(json::parse(none->body)["active"] == false);

  // The log judged the PKCE of each exchange.
  int pkce_failed = 0, pkce_ok = 0;
  for (const auto& e : log.entries())
    if (e.contains("pkce_ok")) (e["pkce_ok"] == true ? pkce_ok : pkce_failed)++;
  CHECK(pkce_failed == 1);
  CHECK(pkce_ok == 2);
  as.stop();
}

TEST_CASE("mock AS: introspection knows the tokens it minted for a server under test, not others", "[auth]") {
  RequestLog log;
  MockAuthorizationServer as(AsConfig{}, log);
  as.start();
  httplib::Client http(as.origin());
  http.set_read_timeout(std::chrono::seconds(10));
  const long long now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
  auto claims = [&](const std::string& jti, long long exp) {
    return json{{"iss", as.issuer()}, {"aud", "http://127.0.0.1:1/mcp"}, {"scope", "mcp:read"}, {"exp", exp}, {"jti", jti}};
  };
  auto active = [&](const std::string& token) {
    auto r = http.Post("/introspect", write_form({{"token", token}}), "application/x-www-form-urlencoded");
    REQUIRE(r);
    return json::parse(r->body);
  };
  // mint_issued enters the registry (mock-AS mode's tokens); mint alone does not.
  json known = active(as.mint_issued(claims("minted-1", now + 60)));
  CHECK(known["active"] == true);
  CHECK(known["scope"] == "mcp:read");
  CHECK(known["aud"] == "http://127.0.0.1:1/mcp");
  CHECK(active(as.mint(claims("unregistered", now + 60)))["active"] == false);
  CHECK(active(as.mint_issued(claims("minted-expired", now - 10)))["active"] == false);
  CHECK(as.check_access_token(as.mint_issued(claims("minted-2", now + 60)), "http://127.0.0.1:1/mcp").ok);
  as.stop();
}

TEST_CASE("protected endpoint: 401 challenge, 403 insufficient scope, query tokens ignored", "[auth]") {
  RequestLog log;
  MockAuthorizationServer as(AsConfig{}, log);
  as.start();
  ResourceConfig rc;
  rc.method_scopes = {{"tools/call", "mcp:write"}};
  rc.challenge_scope = "mcp:basic";
  ProtectedResource gate(rc, as, log);
  gate.set_endpoint("http://127.0.0.1:1/mcp", "http://127.0.0.1:1", "/mcp");

  httplib::Request req;
  req.method = "POST";
  req.path = "/mcp";
  req.body = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
  httplib::Response res;
  CHECK_FALSE(gate.admit(req, res));
  CHECK(res.status == 401);
  auto ch = parse_www_authenticate(res.get_header_value("WWW-Authenticate"));
  REQUIRE(ch.error.empty());
  REQUIRE(find_challenge(ch.challenges, "Bearer"));
  CHECK(find_challenge(ch.challenges, "Bearer")->param("resource_metadata") ==
        std::optional<std::string>("http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp"));
  CHECK(find_challenge(ch.challenges, "Bearer")->param("scope") == std::optional<std::string>("mcp:basic"));

  long long now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  // A token the server did not issue (signed with its key, but unknown jti) is refused.
  std::string minted = as.mint({{"iss", as.issuer()}, {"aud", "http://127.0.0.1:1/mcp"}, {"exp", now + 60}, {"jti", "x"}});
  req.headers.emplace("Authorization", "Bearer " + minted);
  res = httplib::Response();
  CHECK_FALSE(gate.admit(req, res));
  CHECK(res.get_header_value("WWW-Authenticate").find("error=\"invalid_token\"") != std::string::npos);

  // An issued token passes for tools/list and is short of a scope for tools/call.
  Flow f(as);
  std::string verifier = new_verifier();
  auto back = query_of(f.authorize(s256_challenge(verifier))->get_header_value("Location"));
  auto good = f.token({{"grant_type", "authorization_code"}, {"code", back["code"]}, {"redirect_uri", kRedirect},
                       {"code_verifier", verifier}, {"resource", "http://127.0.0.1:1/mcp"}});
  std::string access = json::parse(good->body)["access_token"];
  req.headers.clear();
  req.headers.emplace("Authorization", "bearer " + access);  // the scheme is case-insensitive
  res = httplib::Response();
  CHECK(gate.admit(req, res));
  req.body = R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}})";
  res = httplib::Response();
  CHECK_FALSE(gate.admit(req, res));
  CHECK(res.status == 403);
  auto ch403 = parse_www_authenticate(res.get_header_value("WWW-Authenticate"));
  REQUIRE(find_challenge(ch403.challenges, "Bearer"));
  CHECK(find_challenge(ch403.challenges, "Bearer")->param("error") == std::optional<std::string>("insufficient_scope"));
  CHECK(find_challenge(ch403.challenges, "Bearer")->param("scope") == std::optional<std::string>("mcp:write"));

  // The token only in the query string: refused as no token, and logged.
  req.headers.clear();
  req.params.emplace("access_token", access);
  req.body = R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})";
  res = httplib::Response();
  CHECK_FALSE(gate.admit(req, res));
  CHECK(res.status == 401);
  CHECK(log.entries().back()["token_in_query"] == true);
  as.stop();
}
