// URLs of the authorization checks: well-known locations of PRM and AS metadata in the orders the
// spec gives, and the lenient resource comparison (a different origin fails, a loose path warns).
#include "harness/authcheck/resource_uri.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec::authcheck;

TEST_CASE("resource uri: PRM well-known URLs, path-based first", "[auth]") {
  CHECK(prm_well_known_urls("http://127.0.0.1:8080/mcp") ==
        std::vector<std::string>{"http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp",
                                 "http://127.0.0.1:8080/.well-known/oauth-protected-resource"});
  CHECK(prm_well_known_urls("https://a.example/") ==
        std::vector<std::string>{"https://a.example/.well-known/oauth-protected-resource"});
}

TEST_CASE("resource uri: AS metadata URLs for issuers with and without a path", "[auth]") {
  auto with_path = as_metadata_urls("https://as.example/tenant1", false);
  REQUIRE(with_path.size() == 3);
  CHECK(with_path[0].url == "https://as.example/.well-known/oauth-authorization-server/tenant1");
  CHECK(with_path[1].url == "https://as.example/.well-known/openid-configuration/tenant1");
  CHECK(with_path[2].url == "https://as.example/tenant1/.well-known/openid-configuration");
  CHECK(with_path[2].openid);
  auto root = as_metadata_urls("https://as.example", false);
  REQUIRE(root.size() == 2);
  CHECK(root[0].url == "https://as.example/.well-known/oauth-authorization-server");
  CHECK(as_metadata_urls("https://as.example", true).size() == 1);  // 2025-06-18: RFC 8414 only
}

TEST_CASE("resource uri: secure URLs, origins and percent-encoding", "[auth]") {
  CHECK(origin_of("HTTPS://A.example:443/mcp") == "https://a.example");
  CHECK(origin_of("http://127.0.0.1:8080/mcp?x") == "http://127.0.0.1:8080");
  CHECK(is_secure_or_loopback("https://a.example/x"));
  CHECK(is_secure_or_loopback("http://127.0.0.1:9/x"));
  CHECK(is_secure_or_loopback("http://localhost/x"));
  CHECK_FALSE(is_secure_or_loopback("http://a.example/x"));
  CHECK_FALSE(is_secure_or_loopback("relative/path"));
  CHECK(percent_encode("a b/c") == "a%20b%2Fc");
}
