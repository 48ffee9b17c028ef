// harness/auth's WWW-Authenticate parser (RFC 9110 §11.6.1) on the variants the resource-server
// checks meet and the checklist names: several challenges in one field, token68, quoted-strings with escapes,
// lower-case schemes, empty list elements, and text that breaks the grammar.
#include "harness/auth/www_authenticate.hpp"

#include <catch2/catch.hpp>

using mcpspec::auth::find_challenge;
using mcpspec::auth::parse_www_authenticate;

TEST_CASE("www-authenticate: one Bearer challenge with quoted and token parameters", "[auth]") {
  auto p = parse_www_authenticate(R"(Bearer resource_metadata="https://x.example/.well-known/oauth-protected-resource/mcp", scope="a b", error=invalid_token)");
  CHECK(p.error.empty());
  REQUIRE(p.challenges.size() == 1);
  const auto& c = p.challenges[0];
  CHECK(c.scheme == "Bearer");
  CHECK(c.param("resource_metadata") == std::optional<std::string>("https://x.example/.well-known/oauth-protected-resource/mcp"));
  CHECK(c.param("SCOPE") == std::optional<std::string>("a b"));  // names are case-insensitive
  CHECK(c.param("error") == std::optional<std::string>("invalid_token"));
  CHECK_FALSE(c.param("realm"));
}

TEST_CASE("www-authenticate: several challenges, token68 and escapes", "[auth]") {
  auto p = parse_www_authenticate(R"(DPoP algs="ES256 RS256", Basic dXNlcjpwYXNz==, bearer realm="a \"quoted\" realm",, scope=x)");
  CHECK(p.error.empty());
  REQUIRE(p.challenges.size() == 3);
  CHECK(p.challenges[0].scheme == "DPoP");
  CHECK(p.challenges[0].param("algs") == std::optional<std::string>("ES256 RS256"));
  CHECK(p.challenges[1].token68 == "dXNlcjpwYXNz==");
  const auto* bearer = find_challenge(p.challenges, "Bearer");  // the scheme matches case-insensitively
  REQUIRE(bearer);
  CHECK(bearer->param("realm") == std::optional<std::string>("a \"quoted\" realm"));
  CHECK(bearer->param("scope") == std::optional<std::string>("x"));
}

TEST_CASE("www-authenticate: a scheme alone, and a scheme followed by another challenge", "[auth]") {
  auto p = parse_www_authenticate("Negotiate, Bearer");
  CHECK(p.error.empty());
  REQUIRE(p.challenges.size() == 2);
  CHECK(p.challenges[1].scheme == "Bearer");
  CHECK(p.challenges[1].params.empty());
}

TEST_CASE("www-authenticate: broken text stops the parse and says where", "[auth]") {
  auto unterminated = parse_www_authenticate(R"(Bearer resource_metadata="https://x.example)");
  CHECK_FALSE(unterminated.error.empty());
  auto no_value = parse_www_authenticate("Bearer scope=, error=x");
  CHECK_FALSE(no_value.error.empty());
  auto no_scheme = parse_www_authenticate("=oops");
  CHECK(no_scheme.challenges.empty());
  CHECK_FALSE(no_scheme.error.empty());
  auto junk = parse_www_authenticate(R"(Bearer scope="a" junk)");
  CHECK_FALSE(junk.error.empty());
}
