// The Host and Origin rule every server end of the harness applies (request_guard.hpp): what is
// refused with 403 and what is served. The ends themselves are attacked by hostile/ends/*.
#include "harness/transport/http/request_guard.hpp"

#include <catch2/catch.hpp>

using mcpspec::transport::http::forbidden_reason;
using mcpspec::transport::http::ListenAddress;

namespace {
const ListenAddress kLoopback{"127.0.0.1", 8123};
bool served(const std::string& host, const std::string& origin, const ListenAddress& at = kLoopback) {
  return forbidden_reason(host, origin, at).empty();
}
}  // namespace

TEST_CASE("request guard: loopback names with the bound port are served", "[http][guard]") {
  CHECK(served("127.0.0.1:8123", ""));
  CHECK(served("localhost:8123", ""));
  CHECK(served("LOCALHOST:8123", ""));
  CHECK(served("[::1]:8123", ""));
  CHECK(served("", ""));  // no Host (HTTP/1.0): no browser, nothing to protect against
  CHECK(served("127.0.0.1:8123", "http://localhost:3000"));
  CHECK(served("127.0.0.1:8123", "https://127.0.0.1"));
  CHECK(served("127.0.0.1:8123", "http://[::1]:9/page"));
}

TEST_CASE("request guard: a Host that is not the listen address is refused", "[http][guard]") {
  CHECK_FALSE(served("evil.example:8123", ""));
  CHECK_FALSE(served("127.0.0.1.evil.example:8123", ""));  // DNS rebinding
  CHECK_FALSE(served("127.0.0.1:8124", ""));               // another port
  CHECK_FALSE(served("127.0.0.1", ""));                    // port 80, not ours
  CHECK_FALSE(served("127.0.0.1:8123x", ""));
  CHECK_FALSE(served("127.0.0.1:", ""));
  CHECK_FALSE(served("[::1", ""));
  CHECK(forbidden_reason("evil.example:8123", "", kLoopback).find("Host evil.example:8123") != std::string::npos);
}

TEST_CASE("request guard: an Origin of another site, null or another scheme is refused", "[http][guard]") {
  CHECK_FALSE(served("127.0.0.1:8123", "http://evil.example"));
  CHECK_FALSE(served("127.0.0.1:8123", "http://127.0.0.1.evil.example"));
  CHECK_FALSE(served("127.0.0.1:8123", "null"));
  CHECK_FALSE(served("127.0.0.1:8123", "file://localhost"));
  CHECK_FALSE(served("127.0.0.1:8123", "http://"));
  CHECK(forbidden_reason("127.0.0.1:8123", "null", kLoopback).find("Origin null") != std::string::npos);
}

TEST_CASE("request guard: an end on a named address takes that name, a wildcard end checks the port", "[http][guard]") {
  const ListenAddress lan{"192.168.1.20", 80};
  CHECK(served("192.168.1.20", "http://192.168.1.20", lan));
  CHECK_FALSE(served("localhost", "", lan));
  CHECK_FALSE(served("192.168.1.20", "http://evil.example", lan));
  const ListenAddress any{"0.0.0.0", 9000};
  CHECK(served("myhost.lan:9000", "", any));
  CHECK_FALSE(served("myhost.lan:9001", "", any));
  CHECK(served("myhost.lan:9000", "http://localhost:5173", any));
  CHECK_FALSE(served("myhost.lan:9000", "http://myhost.lan:9000", any));  // no name is known to be ours
}
