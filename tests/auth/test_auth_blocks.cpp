// The OAuth building blocks of harness/auth/: RFC test vectors where they exist (RFC 4648 §10 for
// base64url, RFC 7636 Appendix B for PKCE), sign-then-verify and every refusal for JWS, and the
// header, form and URI helpers on the inputs the checks depend on.
#include "harness/auth/base64url.hpp"
#include "harness/auth/canonical_uri.hpp"
#include "harness/auth/form_urlencoded.hpp"
#include "harness/auth/jwt.hpp"
#include "harness/auth/pkce.hpp"
#include "harness/auth/www_authenticate.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec::auth;
using nlohmann::json;

TEST_CASE("base64url matches RFC 4648 vectors and refuses non-canonical text", "[auth]") {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},         {"f", "Zg"},         {"fo", "Zm8"},
                                                         {"foo", "Zm9v"},  {"foob", "Zm9vYg"},  {"fooba", "Zm9vYmE"},
                                                         {"foobar", "Zm9vYmFy"}};
  for (auto [plain, enc] : vectors) {
    CHECK(base64url_encode(plain) == enc);
    CHECK(base64url_decode(enc) == std::optional<std::string>(plain));
  }
  CHECK(base64url_encode(std::string("\xfb\xff", 2)) == "-_8");
  CHECK(base64url_decode("-_8") == std::optional<std::string>(std::string("\xfb\xff", 2)));
  CHECK_FALSE(base64url_decode("Zg=="));  // padding
  CHECK_FALSE(base64url_decode("+/8"));   // the standard alphabet
  CHECK_FALSE(base64url_decode("Z"));     // no byte string has this length
  CHECK_FALSE(base64url_decode("Zh"));    // non-zero trailing bits
}

TEST_CASE("PKCE S256 matches RFC 7636 Appendix B", "[auth]") {
  CHECK(s256_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  CHECK(valid_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"));
  CHECK(valid_verifier(new_verifier()));
  CHECK_FALSE(valid_verifier(std::string(42, 'a')));
  CHECK_FALSE(valid_verifier(std::string(129, 'a')));
  CHECK_FALSE(valid_verifier(std::string(43, 'a') + "+"));
}

TEST_CASE("JWS: RS256 and ES256 tokens verify, and every forgery is refused", "[auth]") {
  for (JwsAlg alg : {JwsAlg::RS256, JwsAlg::ES256}) {
    KeySet keys;
    keys.add(JwsKey::generate(alg, "k1"));
    json claims = {{"iss", "http://127.0.0.1:1"}, {"aud", "http://127.0.0.1:2/mcp"}, {"exp", 2000000000}};
    std::string token = sign_jwt(claims, *keys.find("k1"));
    auto ok = verify_jwt(token, keys);
    INFO(alg_name(alg) << ": " << ok.error);
    REQUIRE(ok.ok);
    CHECK(ok.claims == claims);
    CHECK(ok.header["typ"] == "at+jwt");

    // A verifier that only has the JWKS (public halves) accepts it too.
    KeySet published = KeySet::from_jwks(keys.jwks());
    CHECK_FALSE(published.find("k1")->has_private());
    CHECK(verify_jwt(token, published).ok);
    CHECK_FALSE(keys.jwks().dump().find("\"d\"") != std::string::npos);

    // Tampered payload: same header and signature, another audience.
    auto d1 = token.find('.'), d2 = token.rfind('.');
    json forged = claims;
    forged["aud"] = "http://evil.example/mcp";
    std::string tampered = token.substr(0, d1 + 1) + base64url_encode(forged.dump()) + token.substr(d2);
    CHECK(verify_jwt(tampered, keys).error == "bad signature");

    CHECK(verify_jwt(unsigned_jwt(claims), keys).error.find("alg \"none\" refused") == 0);

    KeySet other;
    other.add(JwsKey::generate(alg, "k2"));
    CHECK(verify_jwt(sign_jwt(claims, *other.find("k2")), keys).error == "unknown kid \"k2\"");
    // The same kid with another key: the signature fails.
    KeySet impostor;
    impostor.add(JwsKey::generate(alg, "k1"));
    CHECK(verify_jwt(sign_jwt(claims, *impostor.find("k1")), keys).error == "bad signature");

    CHECK_FALSE(verify_jwt("abc", keys).ok);
    CHECK_FALSE(verify_jwt("a.b.c.d", keys).ok);
  }
}

TEST_CASE("JWS: an alg that does not match the key is refused", "[auth]") {
  KeySet keys;
  keys.add(JwsKey::generate(JwsAlg::RS256, "r"));
  json header = {{"alg", "ES256"}, {"kid", "r"}};
  std::string input = base64url_encode(header.dump()) + "." + base64url_encode("{}");
  std::string token = input + "." + base64url_encode(keys.find("r")->sign(input));
  CHECK(verify_jwt(token, keys).error.find("does not match key") != std::string::npos);
}

TEST_CASE("JWT claims: iss exact, aud contains, exp and nbf", "[auth]") {
  json c = {{"iss", "http://as"}, {"aud", json::array({"x", "http://rs/mcp"})}, {"exp", 100}};
  CHECK(check_claims(c, "http://as", "http://rs/mcp", 50).empty());
  CHECK(check_claims(c, "http://as/", "http://rs/mcp", 50).find("iss") == 0);
  CHECK(check_claims(c, "http://as", "http://other/mcp", 50).find("aud") == 0);
  CHECK(check_claims(c, "http://as", "http://rs/mcp", 100) == "expired");
  c["nbf"] = 80;
  CHECK(check_claims(c, "http://as", "http://rs/mcp", 50) == "not yet valid (nbf)");
  c.erase("aud");
  CHECK_FALSE(check_claims(c, "http://as", "http://rs/mcp", 90).empty());
}

TEST_CASE("JWK import refuses malformed keys with the member named", "[auth]") {
  CHECK_THROWS_WITH(JwsKey::from_jwk(json{{"kty", "oct"}}), Catch::Contains("kty"));
  CHECK_THROWS_WITH(JwsKey::from_jwk(json{{"kty", "RSA"}, {"e", "AQAB"}}), Catch::Contains("\"n\""));
  CHECK_THROWS_WITH(JwsKey::from_jwk(json{{"kty", "EC"}, {"crv", "P-384"}}), Catch::Contains("P-256"));
  CHECK_THROWS_WITH(KeySet::from_jwks(json{{"keys", json::array({json{{"kty", "RSA"}}})}}), Catch::Contains("keys[0]"));
}

TEST_CASE("WWW-Authenticate: the challenge forms clients must parse", "[auth]") {
  auto p = parse_www_authenticate(
      R"(DPoP algs="ES256", bearer scope="a b", resource_metadata="http://h/x\"y", error=invalid_token)");
  REQUIRE(p.error.empty());
  REQUIRE(p.challenges.size() == 2);
  CHECK(p.challenges[0].scheme == "DPoP");
  const Challenge* b = find_challenge(p.challenges, "Bearer");
  REQUIRE(b);
  CHECK(b->param("SCOPE") == std::optional<std::string>("a b"));
  CHECK(b->param("resource_metadata") == std::optional<std::string>("http://h/x\"y"));
  CHECK(b->param("error") == std::optional<std::string>("invalid_token"));

  auto t68 = parse_www_authenticate("Basic dXNlcjpwYXNz==, Bearer");
  REQUIRE(t68.error.empty());
  REQUIRE(t68.challenges.size() == 2);
  CHECK(t68.challenges[0].token68 == std::optional<std::string>("dXNlcjpwYXNz=="));
  CHECK(t68.challenges[1].params.empty());

  CHECK_FALSE(parse_www_authenticate(R"(Bearer realm="open)").error.empty());
  CHECK_FALSE(parse_www_authenticate(R"(Bearer a="1", a="2")").error.empty());
  CHECK_FALSE(parse_www_authenticate("=x").error.empty());

  std::string written = write_challenge("Bearer", {{"resource_metadata", "http://h/a\"b"}, {"scope", "x y"}});
  CHECK(written == R"(Bearer resource_metadata="http://h/a\"b", scope="x y")");
  auto back = parse_www_authenticate(written);
  REQUIRE(back.challenges.size() == 1);
  CHECK(back.challenges[0].param("resource_metadata") == std::optional<std::string>("http://h/a\"b"));
}

TEST_CASE("form-urlencoded: decoding, plus as space, repeats reported", "[auth]") {
  Form f = parse_form("a=1&b=x+y%2Fz&a=2&c=");
  CHECK_FALSE(f.get("a"));
  CHECK(f.repeated() == std::vector<std::string>{"a"});
  CHECK(f.get("b") == std::optional<std::string>("x y/z"));
  CHECK(f.get("c") == std::optional<std::string>(""));
  CHECK_FALSE(f.has("d"));
  Form round = parse_form(write_form({{"redirect_uri", "http://localhost:3000/cb?x=1&y=2"}}));
  CHECK(round.get("redirect_uri") == std::optional<std::string>("http://localhost:3000/cb?x=1&y=2"));
}

TEST_CASE("canonical resource URI comparison names the rule it needed", "[auth]") {
  const std::string c = "http://127.0.0.1:8080/mcp";
  CHECK(compare_resource(c, c) == UriMatch::Identical);
  CHECK(compare_resource("HTTP://127.0.0.1:8080/mcp", c) == UriMatch::Normalized);
  CHECK(compare_resource("http://LocalHost/mcp", "http://localhost:80/mcp") == UriMatch::Normalized);
  CHECK(compare_resource("http://127.0.0.1:8080/mcp/", c) == UriMatch::TrailingSlash);
  CHECK(compare_resource("http://127.0.0.1:8080", c) == UriMatch::OtherPath);
  CHECK(compare_resource("http://127.0.0.1:8081/mcp", c) == UriMatch::OtherOrigin);
  CHECK(compare_resource("https://evil.example.com/mcp", c) == UriMatch::OtherOrigin);
  CHECK(compare_resource("/mcp", c) == UriMatch::NotAbsolute);
  CHECK(compare_resource("http://127.0.0.1:8080/mcp#x", c) == UriMatch::HasFragment);
}
