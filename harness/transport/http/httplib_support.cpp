#include "harness/transport/http/httplib_support.hpp"

#include "harness/transport/transport.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <random>

namespace mcpspec::transport::http {

namespace {

// Set on the accepting thread while it serves a connection past the bound (see BoundedConnections).
thread_local bool t_over_capacity = false;

// cpp-httplib's ThreadPool queues accepted connections without bound, each holding a descriptor.
// This one lets at most `max_open` be open (served by the pool or waiting for a worker). A
// connection past that cannot be dropped (the library's task owns and closes its socket), so it is
// served at once on the accepting thread, flagged, and its request refused with 503 before routing
// (the read time-out bounds how long that takes).
class BoundedConnections : public httplib::TaskQueue {
 public:
  BoundedConnections(std::size_t workers, int max_open) : pool_(workers), max_open_(max_open) {}
  void enqueue(std::function<void()> fn) override {
    if (open_.fetch_add(1) >= max_open_) {
      open_.fetch_sub(1);
      t_over_capacity = true;
      fn();
      t_over_capacity = false;
      return;
    }
    pool_.enqueue([this, fn = std::move(fn)] {
      fn();
      open_.fetch_sub(1);
    });
  }
  void shutdown() override { pool_.shutdown(); }

 private:
  httplib::ThreadPool pool_;
  const int max_open_;
  std::atomic<int> open_{0};
};

// The request line and every "name: value" line with their line ends, as they came.
std::size_t head_bytes(const httplib::Request& req) {
  std::size_t n = req.method.size() + req.target.size() + req.version.size() + 4;
  for (const auto& [k, v] : req.headers) n += k.size() + v.size() + 4;
  return n;
}

void refuse(httplib::Response& res, int status, const std::string& why) {
  res.status = status;
  res.set_content(nlohmann::json{{"jsonrpc", "2.0"},
                                 {"id", nullptr},
                                 {"error", {{"code", -32600}, {"message", why}}}}
                      .dump(),
                  "application/json");
  res.set_header("Connection", "close");
}

}  // namespace

std::string new_session_id() {
  std::random_device rd;
  std::uniform_int_distribution<int> hex(0, 15);
  std::string id;
  for (int i = 0; i < 32; ++i) id += "0123456789abcdef"[hex(rd)];
  return id;
}

nlohmann::json request_headers(const httplib::Request& req) {
  nlohmann::json h = nlohmann::json::object();
  for (const auto& [k, v] : req.headers) {
    std::string name = k;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name == "remote_addr" || name == "remote_port" || name == "local_addr" || name == "local_port") continue;
    h[name] = v;
  }
  return h;
}

// Binds (with kListenBacklog) without serving yet; returns the port.
static int bind_server(httplib::Server& server, const std::string& host, int port) {
  // httplib writes a response's headers and body apart; without TCP_NODELAY the body waits for the
  // client's delayed ACK of the headers (about 40 ms per answer on Linux).
  server.set_tcp_nodelay(true);
  auto fd = std::make_shared<int>(-1);
  server.set_socket_options([fd](int sock) {
    httplib::default_socket_options(sock);
    *fd = sock;
  });
  const int wanted = port;
  if (port == 0) port = server.bind_to_any_port(host);
  else if (!server.bind_to_port(host, port)) port = -1;
  if (port <= 0)
    throw TransportError("cannot listen on " + host + ":" + (wanted ? std::to_string(wanted) : std::string("(any port)")));
  // Listening again on a listening socket only changes its backlog (Linux).
  if (*fd >= 0) ::listen(*fd, kListenBacklog);
  return port;
}

int listen_guarded(httplib::Server& server, const std::string& host, int port, std::thread& thread, int workers,
                   RefusalNote on_refused) {
  const int max_open = std::max(RequestLimits::kMaxConnections, workers);
  server.new_task_queue = [workers, max_open] { return new BoundedConnections(static_cast<std::size_t>(workers), max_open); };
  server.set_read_timeout(std::chrono::seconds(RequestLimits::kIdleSeconds));
  server.set_keep_alive_timeout(RequestLimits::kIdleSeconds);
  // Filled in once bound, before the serving thread starts (the handler runs on its workers).
  auto at = std::make_shared<ListenAddress>();
  server.set_pre_routing_handler([at, on_refused](const httplib::Request& req, httplib::Response& res) {
    int status = 0;
    std::string why;
    if (t_over_capacity) {
      status = 503;
      why = "Service Unavailable: more than " + std::to_string(RequestLimits::kMaxConnections) + " connections";
    } else if (head_bytes(req) > RequestLimits::kMaxHeadBytes) {
      status = 431;
      why = "Request Header Fields Too Large: the head is over " + std::to_string(RequestLimits::kMaxHeadBytes) + " bytes";
    } else if (auto reason = forbidden_reason(req.get_header_value("Host"), req.get_header_value("Origin"), *at);
               !reason.empty()) {
      status = 403;
      why = "Forbidden: " + reason;
    }
    if (status == 0) return httplib::Server::HandlerResponse::Unhandled;
    refuse(res, status, why);
    if (on_refused) on_refused(req, status, why);
    return httplib::Server::HandlerResponse::Handled;
  });
  at->host = host;
  at->port = bind_server(server, host, port);
  thread = std::thread([&server] { server.listen_after_bind(); });
  return at->port;
}

int listen_for_client(httplib::Server& server, std::thread& thread, int workers, RefusalNote on_refused) {
  try {
    return listen_guarded(server, "127.0.0.1", 0, thread, workers, std::move(on_refused));
  } catch (const TransportError&) {
    throw TransportError("cannot listen on 127.0.0.1 for the client under test");
  }
}

}  // namespace mcpspec::transport::http
