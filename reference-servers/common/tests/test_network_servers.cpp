// The Streamable HTTP and WebSocket server ends, driven by a cpp-httplib client and by
// WebSocketClientChannel: sessions, status codes, DNS-rebinding checks, one message per frame,
// every failure with a deadline.
#include "mcpref/http_server.hpp"
#include "mcpref/websocket_client_channel.hpp"
#include "mcpref/websocket_server.hpp"

#include <httplib.h>

#include <catch2/catch.hpp>

#include <future>
#include <thread>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using mcpref::Json;

namespace {

mcpref::Dispatcher echo_dispatcher() {
  mcpref::Dispatcher d;
  d.on_request("initialize", [](const Json&) { return Json{{"protocolVersion", "2025-06-18"}}; });
  d.on_request("ping", [](const Json&) { return Json::object(); });
  d.on_request("echo", [](const Json& p) { return p; });
  return d;
}

// Runs a server on a free loopback port for the scope's duration.
template <typename Server>
class Running {
 public:
  explicit Running(mcpref::Dispatcher& d, std::vector<std::string> versions = {})
      : Running(d, options_with(std::move(versions))) {}
  Running(mcpref::Dispatcher& d, mcpref::NetworkOptions options) {
    std::promise<int> bound;
    auto port = bound.get_future();
    options.on_listening = [&bound](int p) { bound.set_value(p); };
    server_ = std::make_unique<Server>(d, options);
    thread_ = std::thread([this] { server_->run(); });
    REQUIRE(port.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    port_ = port.get();
  }
  ~Running() {
    server_->stop();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  static mcpref::NetworkOptions options_with(std::vector<std::string> versions) {
    mcpref::NetworkOptions options;
    options.protocol_versions = std::move(versions);
    return options;
  }

  std::unique_ptr<Server> server_;
  std::thread thread_;
  int port_ = 0;
};

const char* kInit = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})";
const char* kPing = R"({"jsonrpc":"2.0","id":2,"method":"ping"})";

// A plain TCP connection to the server, for what no well-behaved client library sends.
class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  }
  ~RawConnection() { ::close(fd_); }
  void send(const std::string& text) { REQUIRE(::send(fd_, text.data(), text.size(), MSG_NOSIGNAL) == ssize_t(text.size())); }
  // Everything the server sends until it closes the connection, or until `wait` has passed
  // (then closed is false).
  std::string read_until_closed(std::chrono::milliseconds wait) {
    std::string got;
    auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{fd_, POLLIN, 0};
      if (left.count() <= 0 || ::poll(&p, 1, int(left.count())) <= 0) return got;
      char buf[4096];
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        closed = true;
        return got;
      }
      got.append(buf, size_t(n));
    }
  }
  bool closed = false;

 private:
  int fd_ = -1;
};

std::string post_text(const std::string& body, const std::string& host = "127.0.0.1") {
  return "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string upgrade_text(const std::string& host) {
  return "GET /mcp HTTP/1.1\r\nHost: " + host +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
         "Sec-WebSocket-Version: 13\r\n\r\n";
}

mcpref::NetworkOptions bounded(std::size_t max_connections, int idle_seconds) {
  mcpref::NetworkOptions options;
  options.max_connections = max_connections;
  options.idle_timeout_seconds = idle_seconds;
  return options;
}

}  // namespace

TEST_CASE("HTTP: initialize opens a session, later requests need its id, DELETE ends it") {
  auto d = echo_dispatcher();
  Running<mcpref::HttpServer> server(d);
  httplib::Client client("127.0.0.1", server.port());
  client.set_read_timeout(5, 0);

  auto pre = client.Post("/mcp", kPing, "application/json");
  REQUIRE(pre);
  CHECK(pre->status == 200);  // no session open yet: a client may ping before initializing

  auto init = client.Post("/mcp", kInit, "application/json");
  REQUIRE(init);
  CHECK(init->status == 200);
  std::string session = init->get_header_value("Mcp-Session-Id");
  CHECK(session.size() == 32);
  CHECK(Json::parse(init->body)["result"]["protocolVersion"] == "2025-06-18");

  CHECK(client.Post("/mcp", kPing, "application/json")->status == 400);  // id missing now
  httplib::Headers with_session = {{"Mcp-Session-Id", session}};
  auto ping = client.Post("/mcp", with_session, kPing, "application/json");
  CHECK(ping->status == 200);
  CHECK(Json::parse(ping->body)["result"] == Json::object());
  CHECK(client.Post("/mcp", {{"Mcp-Session-Id", "nope"}}, kPing, "application/json")->status == 404);
  auto note = client.Post("/mcp", with_session, R"({"jsonrpc":"2.0","method":"x"})", "application/json");
  CHECK(note->status == 202);
  CHECK(note->body.empty());
  CHECK(client.Get("/mcp")->status == 405);
  CHECK(client.Delete("/mcp", with_session)->status == 204);
  CHECK(client.Post("/mcp", with_session, kPing, "application/json")->status == 404);
}

TEST_CASE("HTTP: foreign Origin and Host are refused, bad JSON is 400, unknown protocol version is 400") {
  auto d = echo_dispatcher();
  Running<mcpref::HttpServer> server(d, std::vector<std::string>{"2025-06-18"});
  httplib::Client client("127.0.0.1", server.port());
  CHECK(client.Post("/mcp", {{"Origin", "http://evil.example"}}, kInit, "application/json")->status == 403);
  CHECK(client.Post("/mcp", {{"Origin", "http://localhost:3000"}}, kInit, "application/json")->status == 200);
  CHECK(client.Post("/mcp", {{"Host", "evil.example.com"}}, kInit, "application/json")->status == 403);
  auto bad = client.Post("/mcp", "{nope", "application/json");
  CHECK(bad->status == 400);
  CHECK(Json::parse(bad->body)["error"]["code"] == -32700);
  CHECK(client.Post("/mcp", {{"MCP-Protocol-Version", "1999-01-01"}}, kInit, "application/json")->status == 400);
}

TEST_CASE("WebSocket: requests and answers, one per text frame, the subprotocol mcp is accepted") {
  auto d = echo_dispatcher();
  Running<mcpref::WebSocketServer> server(d);
  mcpref::WebSocketClientChannel channel({"ws://127.0.0.1:" + std::to_string(server.port()) + "/mcp"});
  channel.open(std::chrono::seconds(5));
  CHECK(channel.is_open());
  CHECK(channel.request("echo", {{"x", 1}}, std::chrono::seconds(5)) == Json{{"x", 1}});
  CHECK_THROWS_AS(channel.request("missing", Json::object(), std::chrono::seconds(5)), mcpref::ServerError);
  channel.notify("notifications/initialized", Json::object());
  CHECK(channel.request("ping", nullptr, std::chrono::seconds(5)) == Json::object());
  channel.close(std::chrono::milliseconds(500));
  CHECK_FALSE(channel.is_open());
  CHECK_THROWS_AS(channel.request("ping", nullptr, std::chrono::seconds(1)), mcpref::ChannelClosed);
}

TEST_CASE("WebSocket client: a stopped server fails waiting requests, bad URLs and refused ports are ChannelClosed") {
  auto d = echo_dispatcher();
  std::string url;
  {
    auto server = std::make_unique<Running<mcpref::WebSocketServer>>(d);
    url = "ws://127.0.0.1:" + std::to_string(server->port()) + "/mcp";
    mcpref::WebSocketClientChannel channel({url});
    channel.open(std::chrono::seconds(5));
    server.reset();  // the server goes away
    for (int i = 0; i < 50 && channel.is_open(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_FALSE(channel.is_open());
    CHECK_THROWS_AS(channel.request("ping", nullptr, std::chrono::seconds(1)), mcpref::ChannelClosed);
  }
  mcpref::WebSocketClientChannel refused({url});
  CHECK_THROWS_AS(refused.open(std::chrono::seconds(2)), mcpref::ChannelClosed);
  mcpref::WebSocketClientChannel bad({"http://127.0.0.1:1/mcp"});
  CHECK_THROWS_WITH(bad.open(std::chrono::seconds(1)), Catch::Contains("not a ws:// URL"));
  CHECK(mcpref::parse_websocket_url("ws://[::1]:8080/x").host == "::1");
  CHECK_THROWS(mcpref::parse_websocket_url("ws://host:port/x"));
}

TEST_CASE("HTTP: a batch is answered only in a session that negotiated 2025-03-26") {
  const char* batch = R"([{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","id":"b","method":"ping"}])";
  for (std::string version : {"2025-03-26", "2025-06-18"}) {
    mcpref::Dispatcher d;
    d.on_request("initialize", [version](const Json&) { return Json{{"protocolVersion", version}}; });
    d.on_request("ping", [](const Json&) { return Json::object(); });
    Running<mcpref::HttpServer> server(d);
    httplib::Client client("127.0.0.1", server.port());
    std::string session = client.Post("/mcp", kInit, "application/json")->get_header_value("Mcp-Session-Id");
    auto res = client.Post("/mcp", {{"Mcp-Session-Id", session}}, batch, "application/json");
    REQUIRE(res);
    if (version == "2025-03-26") {
      CHECK(res->status == 200);
      Json replies = Json::parse(res->body);
      REQUIRE(replies.size() == 2);
      CHECK(replies[0]["id"] == "a");
      CHECK(replies[1]["id"] == "b");
    } else {
      CHECK(res->status == 400);
      CHECK(Json::parse(res->body)["error"]["code"] == -32600);
    }
  }
}

TEST_CASE("HTTP and WebSocket: a Host that only starts with the bound address is refused (DNS rebinding)") {
  CHECK(mcpref::is_allowed_host("127.0.0.1:8080", "127.0.0.1"));
  CHECK(mcpref::is_allowed_host("localhost", "127.0.0.1"));
  CHECK(mcpref::is_allowed_host("10.1.2.3:80", "10.1.2.3"));
  CHECK_FALSE(mcpref::is_allowed_host("127.0.0.1.evil.example", "127.0.0.1"));
  CHECK_FALSE(mcpref::is_allowed_host("10.1.2.30", "10.1.2.3"));
  auto d = echo_dispatcher();
  Running<mcpref::HttpServer> http(d);
  httplib::Client client("127.0.0.1", http.port());
  CHECK(client.Post("/mcp", {{"Host", "127.0.0.1.evil.example"}}, kInit, "application/json")->status == 403);
  Running<mcpref::WebSocketServer> ws(d);
  RawConnection foreign(ws.port());
  foreign.send(upgrade_text("evil.example"));
  CHECK_THAT(foreign.read_until_closed(std::chrono::seconds(5)), Catch::StartsWith("HTTP/1.1 403"));
  RawConnection local(ws.port());
  local.send(upgrade_text("127.0.0.1"));
  CHECK_THAT(local.read_until_closed(std::chrono::milliseconds(500)), Catch::StartsWith("HTTP/1.1 101"));
}

TEST_CASE("HTTP: a body past max_message_bytes is 413 and a header line past 8 KiB is refused") {
  auto d = echo_dispatcher();
  mcpref::NetworkOptions options;
  options.max_message_bytes = 1024;
  Running<mcpref::HttpServer> server(d, options);
  httplib::Client client("127.0.0.1", server.port());
  std::string big = R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"x":")" + std::string(2048, 'a') + "\"}}";
  auto res = client.Post("/mcp", big, "application/json");
  CHECK((!res || res->status == 413));
  auto huge_header = client.Post("/mcp", {{"X-Big", std::string(20000, 'h')}}, kPing, "application/json");
  CHECK((!huge_header || huge_header->status == 400));
  CHECK(client.Post("/mcp", kPing, "application/json")->status == 200);  // still serving
}

TEST_CASE("HTTP: past max_connections a connection is answered 503 and closed, a silent one is closed") {
  auto d = echo_dispatcher();
  {
    Running<mcpref::HttpServer> server(d, bounded(2, 5));
    RawConnection held1(server.port()), held2(server.port());  // say nothing: both slots taken
    RawConnection third(server.port());
    third.send(post_text(kPing));
    std::string answer = third.read_until_closed(std::chrono::seconds(10));
    CHECK_THAT(answer, Catch::StartsWith("HTTP/1.1 503"));
    CHECK(third.closed);
  }
  {
    Running<mcpref::HttpServer> server(d, bounded(8, 1));
    RawConnection silent(server.port());
    silent.read_until_closed(std::chrono::seconds(4));  // the default read timeout is 5 s
    CHECK(silent.closed);
    RawConnection served(server.port());
    served.send(post_text(kPing));
    CHECK_THAT(served.read_until_closed(std::chrono::seconds(4)), Catch::StartsWith("HTTP/1.1 200"));
  }
}

TEST_CASE("WebSocket: past max_connections the upgrade is answered 503, an idle connection is closed") {
  auto d = echo_dispatcher();
  Running<mcpref::WebSocketServer> server(d, bounded(1, 1));
  std::string url = "ws://127.0.0.1:" + std::to_string(server.port()) + "/mcp";
  mcpref::WebSocketClientChannel first({url});
  first.open(std::chrono::seconds(5));
  CHECK(first.request("ping", nullptr, std::chrono::seconds(5)) == Json::object());
  RawConnection second(server.port());
  second.send(upgrade_text("127.0.0.1"));
  CHECK_THAT(second.read_until_closed(std::chrono::seconds(5)), Catch::StartsWith("HTTP/1.1 503"));
  // Silent past the idle time (1 s): the server ends the connection (without the bound it never would).
  for (int i = 0; i < 100 && first.is_open(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(first.is_open());
}
