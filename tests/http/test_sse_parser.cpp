// The SSE parser of the HTTP transports: field rules, line endings, split reads, size bounds.
#include "harness/transport/http/sse_parser.hpp"
#include "harness/transport/http/url.hpp"

#include <catch2/catch.hpp>

using mcpspec::transport::http::SseEvent;
using mcpspec::transport::http::SseParser;

namespace {
std::vector<SseEvent> parse_all(const std::string& body, std::size_t piece = 0, std::size_t max = 1 << 20) {
  SseParser p(max);
  std::vector<SseEvent> out;
  if (piece == 0) piece = body.size() ? body.size() : 1;
  for (std::size_t i = 0; i < body.size(); i += piece) p.feed(std::string_view(body).substr(i, piece), out);
  return out;
}
}  // namespace

TEST_CASE("sse: message events with ids, data joined by newlines", "[http][sse]") {
  auto ev = parse_all("id: 1\nevent: message\ndata: {\"a\":\ndata: 1}\n\nid: 2\ndata: x\n\n");
  REQUIRE(ev.size() == 2);
  CHECK(ev[0].id == std::optional<std::string>("1"));
  CHECK(ev[0].type() == "message");
  CHECK(ev[0].data == "{\"a\":\n1}");
  CHECK(ev[1].type() == "message");
  CHECK(ev[1].data == "x");
}

TEST_CASE("sse: CRLF, CR and LF line endings, split at every byte", "[http][sse]") {
  std::string body = "data: a\r\n\r\ndata: b\r\rdata: c\n\n";
  for (std::size_t piece : {0, 1, 2, 3}) {
    auto ev = parse_all(body, piece);
    REQUIRE(ev.size() == 3);
    CHECK(ev[0].data == "a");
    CHECK(ev[1].data == "b");
    CHECK(ev[2].data == "c");
  }
}

TEST_CASE("sse: priming event has an id and no data, comments and unknown fields are ignored", "[http][sse]") {
  auto ev = parse_all(": keep-alive\nid: p-1\ndata: \n\nfoo: bar\nretry: 1500\n\n");
  REQUIRE(ev.size() == 2);
  CHECK(ev[0].id == std::optional<std::string>("p-1"));
  CHECK(ev[0].has_data);
  CHECK(ev[0].data.empty());
  CHECK(ev[1].retry == std::optional<long long>(1500));
  CHECK_FALSE(ev[1].has_data);
}

TEST_CASE("sse: a bad retry value is ignored, an id is remembered for Last-Event-ID", "[http][sse]") {
  SseParser p;
  std::vector<SseEvent> out;
  p.feed("retry: 12a\nid: 7\ndata: x\n\n", out);
  REQUIRE(out.size() == 1);
  CHECK_FALSE(out[0].retry);
  CHECK(p.last_event_id() == "7");
}

TEST_CASE("sse: an unterminated event at the end of the stream is dropped", "[http][sse]") {
  SseParser p;
  std::vector<SseEvent> out;
  p.feed("data: complete\n\ndata: half", out);
  p.finish();
  REQUIRE(out.size() == 1);
  CHECK(out[0].data == "complete");
}

TEST_CASE("sse: an event over the size bound is reported once and skipped", "[http][sse]") {
  std::string big(100, 'x');
  auto ev = parse_all("data: " + big + "\ndata: " + big + "\n\ndata: small\n\n", 7, 64);
  REQUIRE(ev.size() == 2);
  CHECK(ev[0].oversize);
  CHECK(ev[0].data.empty());
  CHECK(ev[1].data == "small");
}

TEST_CASE("sse: a byte-order mark at the start is skipped", "[http][sse]") {
  auto ev = parse_all("\xEF\xBB\xBF" "data: x\n\n");
  REQUIRE(ev.size() == 1);
  CHECK(ev[0].data == "x");
}

TEST_CASE("url: parsing and endpoint resolution", "[http][url]") {
  using namespace mcpspec::transport::http;
  auto u = parse_url("http://127.0.0.1:8080/mcp?x=1");
  CHECK(u.host == "127.0.0.1");
  CHECK(u.port == 8080);
  CHECK(u.target == "/mcp?x=1");
  CHECK(parse_url("http://localhost").target == "/");
  CHECK(parse_url("ws://[::1]:9/").host == "::1");
  CHECK_THROWS_WITH(parse_url("https://x/"), Catch::Contains("not supported"));
  CHECK_THROWS_WITH(parse_url("http://x:99999/"), Catch::Contains("port"));
  CHECK_THROWS_WITH(parse_url("127.0.0.1:80"), Catch::Contains("not a URL"));
  auto base = parse_url("http://127.0.0.1:5/sse");
  CHECK(resolve_url(base, "/messages?sessionId=a").target == "/messages?sessionId=a");
  CHECK(resolve_url(base, "messages").target == "/messages");
  CHECK(resolve_url(base, "http://127.0.0.1:6/m").port == 6);
}
