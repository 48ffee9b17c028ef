// The HTTP/1.1 client of the HTTP transports against a scripted loopback server: body framings,
// size bounds, deadlines, abort from another thread, malformed responses.
#include "harness/transport/http/http_connection.hpp"
#include "harness/transport/transport.hpp"

#include <catch2/catch.hpp>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using namespace mcpspec;
using namespace mcpspec::transport::http;

namespace {

// Accepts one connection, reads the request head, writes `pieces` (pausing between them), then
// keeps the connection open for `hold_ms` before closing it.
class ScriptedServer {
 public:
  ScriptedServer(std::vector<std::string> pieces, int hold_ms = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    REQUIRE(::listen(fd_, 1) == 0);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this, pieces, hold_ms] {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string req;
      char buf[4096];
      while (req.find("\r\n\r\n") == std::string::npos) {
        ssize_t n = ::read(c, buf, sizeof buf);
        if (n <= 0) break;
        req.append(buf, static_cast<std::size_t>(n));
      }
      request_ = req;
      for (const auto& p : pieces) {
        (void)!::write(c, p.data(), p.size());
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
      ::close(c);
    });
  }
  ~ScriptedServer() {
    ::shutdown(fd_, SHUT_RDWR);
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
  }
  int port() const { return port_; }
  std::string request() {
    if (thread_.joinable()) thread_.join();
    return request_;
  }

 private:
  int fd_ = -1, port_ = 0;
  std::thread thread_;
  std::string request_;
};

HttpConnection& connect_to(HttpConnection& c, const ScriptedServer& s) {
  HttpRequest r;
  r.method = "POST";
  r.target = "/mcp";
  r.headers = {{"Content-Type", "application/json"}};
  r.body = "{}";
  c.connect("127.0.0.1", s.port(), Deadline::after_ms(2000));
  c.write_all(format_request(r, "127.0.0.1:" + std::to_string(s.port())), Deadline::after_ms(2000));
  return c;
}

}  // namespace

TEST_CASE("http client: the request goes out as built, with Host and Content-Length", "[http][client]") {
  ScriptedServer s({"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"});
  HttpConnection c;
  connect_to(c, s);
  auto head = c.read_head(Deadline::after_ms(2000));
  CHECK(head.status == 202);
  CHECK(c.read_all(Deadline::after_ms(2000), 100).empty());
  auto req = s.request();
  CHECK(req.rfind("POST /mcp HTTP/1.1\r\n", 0) == 0);
  CHECK(req.find("Host: 127.0.0.1:") != std::string::npos);
  CHECK(req.find("Content-Length: 2\r\n") != std::string::npos);
}

TEST_CASE("http client: chunked body split across reads, with chunk extensions and trailers", "[http][client]") {
  ScriptedServer s({"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\ncontent-type: text/event-stream\r\n\r\n",
                    "5;ext=1\r\nhel", "lo\r\n", "6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n"});
  HttpConnection c;
  connect_to(c, s);
  auto head = c.read_head(Deadline::after_ms(2000));
  CHECK(head.header("Content-Type") == "text/event-stream");  // names are case-insensitive
  CHECK(c.read_all(Deadline::after_ms(2000), 1000) == "hello world");
}

TEST_CASE("http client: a body larger than the bound is refused", "[http][client]") {
  ScriptedServer s({"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n" + std::string(50, 'x')});
  HttpConnection c;
  connect_to(c, s);
  c.read_head(Deadline::after_ms(2000));
  CHECK_THROWS_WITH(c.read_all(Deadline::after_ms(2000), 10), Catch::Contains("larger than 10 bytes"));
}

TEST_CASE("http client: a silent server hits the deadline instead of hanging", "[http][client]") {
  ScriptedServer s({}, 1500);
  HttpConnection c;
  connect_to(c, s);
  auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(c.read_head(Deadline::after_ms(200)), Catch::Contains("timed out"));
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1200));
}

TEST_CASE("http client: abort() wakes a read blocked in another thread", "[http][client]") {
  ScriptedServer s({"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n"}, 1500);
  HttpConnection c;
  connect_to(c, s);
  c.read_head(Deadline::after_ms(2000));
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    c.abort();
  });
  auto t0 = std::chrono::steady_clock::now();
  std::string out;
  CHECK_THROWS_AS(
      [&] {
        while (c.read_body(out, Deadline::after_ms(5000))) {
        }
      }(),
      mcpspec::transport::TransportError);
  killer.join();
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1200));
  CHECK(out.find("data: x") != std::string::npos);
}

TEST_CASE("http client: malformed responses are errors that say what was wrong", "[http][client]") {
  SECTION("not HTTP") {
    ScriptedServer s({"SSH-2.0-OpenSSH\r\n\r\n"});
    HttpConnection c;
    connect_to(c, s);
    CHECK_THROWS_WITH(c.read_head(Deadline::after_ms(2000)), Catch::Contains("not an HTTP response"));
  }
  SECTION("bad chunk size") {
    ScriptedServer s({"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"});
    HttpConnection c;
    connect_to(c, s);
    c.read_head(Deadline::after_ms(2000));
    CHECK_THROWS_WITH(c.read_all(Deadline::after_ms(2000), 100), Catch::Contains("chunk size"));
  }
  SECTION("body cut short") {
    ScriptedServer s({"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"});
    HttpConnection c;
    connect_to(c, s);
    c.read_head(Deadline::after_ms(2000));
    CHECK_THROWS_WITH(c.read_all(Deadline::after_ms(2000), 100), Catch::Contains("still announced"));
  }
  SECTION("nobody listening") {
    HttpConnection c;
    CHECK_THROWS_WITH(c.connect("127.0.0.1", 1, Deadline::after_ms(500)), Catch::Contains("cannot connect"));
  }
}
