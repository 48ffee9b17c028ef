// RFC 6455 framing of the WebSocket transport: masking, length forms, fragments, control frames,
// size bound and protocol errors.
#include "harness/transport/http/ws_frame.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec::transport::http;

namespace {
std::string server_frame(unsigned char first, const std::string& payload) {
  std::string f(1, static_cast<char>(first));
  if (payload.size() < 126) {
    f.push_back(static_cast<char>(payload.size()));
  } else {
    f.push_back(static_cast<char>(126));
    f.push_back(static_cast<char>(payload.size() >> 8));
    f.push_back(static_cast<char>(payload.size() & 0xFF));
  }
  return f + payload;
}
}  // namespace

TEST_CASE("ws: client frames are masked and unmask to the payload", "[http][ws]") {
  std::string payload(300, 'a');
  auto f = ws_client_frame(WsOpcode::Text, payload, 0x01020304);
  REQUIRE(static_cast<unsigned char>(f[0]) == 0x81);
  REQUIRE(static_cast<unsigned char>(f[1]) == (0x80 | 126));
  REQUIRE(f.size() == 2 + 2 + 4 + 300);
  const unsigned char mask[4] = {1, 2, 3, 4};
  for (std::size_t i = 0; i < payload.size(); ++i)
    CHECK(static_cast<char>(static_cast<unsigned char>(f[8 + i]) ^ mask[i % 4]) == 'a');
}

TEST_CASE("ws: server frames decode whatever the read boundaries", "[http][ws]") {
  std::string wire = server_frame(0x81, "{\"a\":1}") + server_frame(0x89, "hi") + server_frame(0x01, "par") +
                     server_frame(0x80, "ts");
  for (std::size_t piece : {std::size_t{1}, std::size_t{3}, wire.size()}) {
    WsDecoder d(1 << 20);
    std::vector<WsMessage> out;
    for (std::size_t i = 0; i < wire.size(); i += piece) REQUIRE(d.feed(wire.substr(i, piece), out));
    REQUIRE(out.size() == 3);
    CHECK(out[0].payload == "{\"a\":1}");
    CHECK(out[1].opcode == WsOpcode::Ping);
    CHECK(out[2].payload == "parts");
  }
}

TEST_CASE("ws: protocol errors and the size bound", "[http][ws]") {
  std::vector<WsMessage> out;
  SECTION("masked server frame") {
    WsDecoder d(100);
    std::string f = "\x81\x81" "abcd" "x";
    CHECK_FALSE(d.feed(f, out));
    CHECK_THAT(d.error(), Catch::Contains("masked"));
  }
  SECTION("oversize message") {
    WsDecoder d(10);
    CHECK_FALSE(d.feed(server_frame(0x81, std::string(11, 'x')), out));
    CHECK_THAT(d.error(), Catch::Contains("larger than 10"));
  }
  SECTION("fragments add up past the bound") {
    WsDecoder d(10);
    CHECK(d.feed(server_frame(0x01, "123456"), out));
    CHECK_FALSE(d.feed(server_frame(0x80, "789012"), out));
  }
  SECTION("continuation without a start") {
    WsDecoder d(100);
    CHECK_FALSE(d.feed(server_frame(0x80, "x"), out));
  }
  SECTION("fragmented control frame") {
    WsDecoder d(100);
    CHECK_FALSE(d.feed(server_frame(0x09, "x"), out));
  }
  SECTION("reserved bits") {
    WsDecoder d(100);
    CHECK_FALSE(d.feed(server_frame(0xC1, "x"), out));
  }
}

TEST_CASE("ws server side: unmasked frames out, masked client frames in", "[ws][http]") {
  std::vector<WsMessage> out;
  SECTION("the accept key of RFC 6455's example") { CHECK(ws_accept("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="); }
  SECTION("server frames are unmasked and a client decoder reads them") {
    std::string f = ws_server_frame(WsOpcode::Text, std::string(300, 'y'));
    CHECK((static_cast<unsigned char>(f[1]) & 0x80) == 0);
    WsDecoder d(1000);
    REQUIRE(d.feed(f, out));
    REQUIRE(out.size() == 1);
    CHECK(out[0].payload == std::string(300, 'y'));
  }
  SECTION("a server decoder unmasks client frames, split anywhere") {
    std::string f = ws_client_frame(WsOpcode::Text, R"({"jsonrpc":"2.0","method":"ping","id":1})", 0x11223344u);
    WsDecoder d(1000, WsRole::Server);
    for (char c : f) REQUIRE(d.feed(std::string(1, c), out));
    REQUIRE(out.size() == 1);
    CHECK(out[0].payload == R"({"jsonrpc":"2.0","method":"ping","id":1})");
  }
  SECTION("a server decoder refuses an unmasked client frame") {
    WsDecoder d(1000, WsRole::Server);
    CHECK_FALSE(d.feed(ws_server_frame(WsOpcode::Text, "x"), out));
    CHECK_THAT(d.error(), Catch::Contains("unmasked"));
  }
  SECTION("the size bound holds for masked frames too") {
    WsDecoder d(10, WsRole::Server);
    CHECK_FALSE(d.feed(ws_client_frame(WsOpcode::Text, std::string(11, 'x'), 7u), out));
  }
}
