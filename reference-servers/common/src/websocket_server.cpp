#include "mcpref/websocket_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <map>
#include <optional>
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

using Clock = std::chrono::steady_clock;

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
  std::mutex mutex;  // guards deadlines
  std::condition_variable idle;
  // Open connections and the time by which each must have made progress. Blocking Beast calls
  // ignore SO_RCVTIMEO (Asio waits again on EAGAIN), so the reaper thread shuts a connection
  // down once its deadline passes: a peer silent in the handshake, between messages, or not
  // reading our answers loses its connection and its thread.
  std::map<int, Clock::time_point> deadlines;
  // Connection threads not yet finished (they still use `io` while their stream is destroyed,
  // after leaving `deadlines`): run() waits for none before the Impl may go.
  int threads = 0;
  std::mutex dispatch_mutex;  // one message at a time across connections

  Impl(Dispatcher& d, NetworkOptions o) : dispatcher(d), options(std::move(o)) {}

  void serve_connection(tcp::socket socket) {
    int fd = socket.native_handle();
    std::optional<websocket::stream<tcp::socket>> ws;  // outlives the untrack below
    serve_upgrade(socket, ws, fd);
    track(fd, false);  // before the descriptor closes, so the reaper never sees a reused number
  }

  void serve_upgrade(tcp::socket& socket, std::optional<websocket::stream<tcp::socket>>& ws, int fd) {
    try {
      beast::flat_buffer buffer;
      http::request_parser<http::string_body> parser;
      parser.header_limit(kMaxRequestHeadBytes);
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
      if (!is_allowed_host(std::string(request[http::field::host]), options.host)) {
        refuse(socket, http::status::forbidden, "foreign Host");
        return;
      }
      bool offers_mcp = std::string(request[http::field::sec_websocket_protocol]).find("mcp") != std::string::npos;
      ws.emplace(std::move(socket));
      ws->read_message_max(options.max_message_bytes);
      ws->set_option(websocket::stream_base::decorator([offers_mcp](websocket::response_type& res) {
        if (offers_mcp) res.set(http::field::sec_websocket_protocol, "mcp");
      }));
      ws->accept(request);
      for (;;) {
        // A client silent for the idle time is gone or hostile: the reaper ends the connection.
        expect_within(fd, std::chrono::seconds(options.idle_timeout_seconds));
        beast::flat_buffer message;
        ws->read(message);
        if (!ws->got_text()) continue;  // binary frames carry no JSON-RPC
        expect_within(fd, std::nullopt);  // the time a handler takes is not the peer's fault
        std::optional<Json> reply;
        {
          std::lock_guard lock(dispatch_mutex);
          reply = dispatcher.handle_line(beast::buffers_to_string(message.data()));
        }
        if (reply) {
          expect_within(fd, std::chrono::seconds(options.idle_timeout_seconds));
          ws->text(true);
          ws->write(asio::buffer(to_line(*reply)));
        }
      }
    } catch (const std::exception&) {
      // The peer closed, timed out or broke the protocol: this connection ends, others go on.
    }
  }

  // Counts a connection in (false when max_connections are open already; its handshake must
  // arrive within kHandshakeSeconds) or out.
  bool track(int fd, bool add) {
    std::lock_guard lock(mutex);
    if (add) {
      if (deadlines.size() >= options.max_connections) return false;
      deadlines[fd] = Clock::now() + std::chrono::seconds(kHandshakeSeconds);
    } else {
      deadlines.erase(fd);
      idle.notify_all();
    }
    return true;
  }

  // The connection must make progress within `limit` from now (nullopt: no deadline).
  void expect_within(int fd, std::optional<std::chrono::seconds> limit) {
    std::lock_guard lock(mutex);
    auto it = deadlines.find(fd);
    if (it != deadlines.end()) it->second = limit ? Clock::now() + *limit : Clock::time_point::max();
  }

  // Runs until stop(): shuts down every connection past its deadline (its thread then sees an
  // error and leaves).
  void reap() {
    std::unique_lock lock(mutex);
    while (!stopping) {
      idle.wait_for(lock, std::chrono::milliseconds(200));
      auto now = Clock::now();
      for (auto& [fd, deadline] : deadlines) {
        if (deadline <= now) {
          ::shutdown(fd, SHUT_RDWR);
          deadline = Clock::time_point::max();
        }
      }
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
  std::thread reaper([&impl] { impl.reap(); });
  while (!impl.stopping) {
    tcp::socket socket(impl.io);
    impl.acceptor.accept(socket, ec);
    if (ec) {
      if (impl.stopping) break;
      continue;  // a connection that failed before we saw it
    }
    int fd = socket.native_handle();
    if (!impl.track(fd, true)) {
      // Past max_connections: refused on this thread, without reading the request (a peer
      // holding connections open must not get more threads).
      refuse(socket, http::status::service_unavailable, "too many connections");
      socket.close(ec);
      continue;
    }
    {
      std::lock_guard lock(impl.mutex);
      ++impl.threads;
    }
    std::thread([&impl, s = std::move(socket)]() mutable {
      impl.serve_connection(std::move(s));  // the socket and stream are gone when this returns
      std::lock_guard lock(impl.mutex);
      --impl.threads;
      impl.idle.notify_all();
    }).detach();
  }
  // Wait (bounded) for the connection threads, which stop() has shut down, to leave.
  impl.idle.notify_all();
  reaper.join();
  std::unique_lock lock(impl.mutex);
  impl.idle.wait_for(lock, std::chrono::seconds(5), [&impl] { return impl.threads == 0; });
}

void WebSocketServer::stop() {
  Impl& impl = *impl_;
  if (impl.stopping.exchange(true)) return;
  // shutdown() wakes a thread blocked in accept() or read() on these sockets; closing from
  // another thread would race with it.
  if (impl.acceptor.is_open()) ::shutdown(impl.acceptor.native_handle(), SHUT_RDWR);
  std::lock_guard lock(impl.mutex);
  for (const auto& [fd, deadline] : impl.deadlines) ::shutdown(fd, SHUT_RDWR);
  impl.idle.notify_all();
}

}  // namespace mcpref
