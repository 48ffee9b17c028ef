#include "mcpref/websocket_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/time.h>
#include <thread>

namespace mcpref {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

// The opening handshake must arrive within this time: a peer that connects and says nothing
// must not hold a thread forever.
constexpr int kHandshakeSeconds = 5;

void set_receive_timeout(int fd, int seconds) {
  timeval tv{seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

void refuse(tcp::socket& socket, http::status status, const std::string& why) {
  http::response<http::string_body> res{status, 11};
  res.set(http::field::content_type, "text/plain");
  res.set(http::field::connection, "close");
  res.body() = why + "\n";
  res.prepare_payload();
  beast::error_code ignored;
  http::write(socket, res, ignored);
}

}  // namespace

struct WebSocketServer::Impl {
  Dispatcher& dispatcher;
  NetworkOptions options;
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::atomic<bool> stopping{false};
  std::mutex mutex;  // guards open_fds and active
  std::condition_variable idle;
  std::set<int> open_fds;
  int active = 0;
  std::mutex dispatch_mutex;  // one message at a time across connections

  Impl(Dispatcher& d, NetworkOptions o) : dispatcher(d), options(std::move(o)) {}

  void serve_connection(tcp::socket socket) {
    int fd = socket.native_handle();
    try {
      set_receive_timeout(fd, kHandshakeSeconds);
      beast::flat_buffer buffer;
      http::request_parser<http::string_body> parser;
      parser.header_limit(64 * 1024);
      parser.body_limit(64 * 1024);
      http::read(socket, buffer, parser);
      auto request = parser.release();
      if (request.target() != options.path && request.target().find(options.path + "?") != 0) {
        refuse(socket, http::status::not_found, "no MCP endpoint at this path");
        return;
      }
      if (!websocket::is_upgrade(request)) {
        refuse(socket, http::status::bad_request, "expected a WebSocket upgrade");
        return;
      }
      if (!is_allowed_origin(std::string(request[http::field::origin]))) {
        refuse(socket, http::status::forbidden, "foreign Origin");
        return;
      }
      bool offers_mcp = std::string(request[http::field::sec_websocket_protocol]).find("mcp") != std::string::npos;
      websocket::stream<tcp::socket> ws(std::move(socket));
      ws.read_message_max(options.max_message_bytes);
      ws.set_option(websocket::stream_base::decorator([offers_mcp](websocket::response_type& res) {
        if (offers_mcp) res.set(http::field::sec_websocket_protocol, "mcp");
      }));
      ws.accept(request);
      set_receive_timeout(fd, 0);  // from now on waiting for the client is its right
      for (;;) {
        beast::flat_buffer message;
        ws.read(message);
        if (!ws.got_text()) continue;  // binary frames carry no JSON-RPC
        std::optional<Json> reply;
        {
          std::lock_guard lock(dispatch_mutex);
          reply = dispatcher.handle_line(beast::buffers_to_string(message.data()));
        }
        if (reply) {
          ws.text(true);
          ws.write(asio::buffer(to_line(*reply)));
        }
      }
    } catch (const std::exception&) {
      // The peer closed, timed out or broke the protocol: this connection ends, others go on.
    }
  }

  void track(int fd, bool add) {
    std::lock_guard lock(mutex);
    if (add) {
      open_fds.insert(fd);
      ++active;
    } else {
      open_fds.erase(fd);
      --active;
      idle.notify_all();
    }
  }
};

WebSocketServer::WebSocketServer(Dispatcher& dispatcher, NetworkOptions options)
    : impl_(std::make_unique<Impl>(dispatcher, std::move(options))) {}

WebSocketServer::~WebSocketServer() { stop(); }

void WebSocketServer::run() {
  Impl& impl = *impl_;
  beast::error_code ec;
  auto address = asio::ip::make_address(impl.options.host, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot listen on '{}': not an IP address", impl.options.host));
  tcp::endpoint endpoint(address, static_cast<unsigned short>(impl.options.port));
  impl.acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl.acceptor.bind(endpoint, ec);
  if (!ec) impl.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error(fmt::format("cannot listen on {}:{}: {}", impl.options.host, impl.options.port,
                                         ec.message()));
  }
  if (impl.options.on_listening) impl.options.on_listening(impl.acceptor.local_endpoint().port());
  while (!impl.stopping) {
    tcp::socket socket(impl.io);
    impl.acceptor.accept(socket, ec);
    if (ec) {
      if (impl.stopping) break;
      continue;  // a connection that failed before we saw it
    }
    int fd = socket.native_handle();
    impl.track(fd, true);
    std::thread([&impl, fd, s = std::move(socket)]() mutable {
      impl.serve_connection(std::move(s));
      impl.track(fd, false);
    }).detach();
  }
  // Wait (bounded) for the connection threads, which stop() has shut down, to leave.
  std::unique_lock lock(impl.mutex);
  impl.idle.wait_for(lock, std::chrono::seconds(5), [&impl] { return impl.active == 0; });
}

void WebSocketServer::stop() {
  Impl& impl = *impl_;
  if (impl.stopping.exchange(true)) return;
  // shutdown() wakes a thread blocked in accept() or read() on these sockets; closing from
  // another thread would race with it.
  if (impl.acceptor.is_open()) ::shutdown(impl.acceptor.native_handle(), SHUT_RDWR);
  std::lock_guard lock(impl.mutex);
  for (int fd : impl.open_fds) ::shutdown(fd, SHUT_RDWR);
}

}  // namespace mcpref
