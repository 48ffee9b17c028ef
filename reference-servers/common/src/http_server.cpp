// Compiled with the feature macros the Debian cpp-httplib library was built with (see
// CMakeLists.txt), so the header's class layout matches the library's.
#include "mcpref/http_server.hpp"

#include <httplib.h>

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <random>
#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

#include <sys/socket.h>

namespace mcpref {

namespace {

std::string new_session_id() {
  // 128 random bits as 32 hex digits: visible ASCII, unguessable enough for a local server.
  static std::mutex mutex;
  static std::random_device device;
  std::lock_guard lock(mutex);
  std::uniform_int_distribution<unsigned> nibble(0, 15);
  std::string id;
  for (int i = 0; i < 32; ++i) id += "0123456789abcdef"[nibble(device)];
  return id;
}

bool is_initialize_request(const Json& value) {
  return value.is_object() && value.contains("id") && value.value("method", Json()) == "initialize";
}

void json_reply(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(to_line(body), "application/json");
}

// Set while a connection past the bound is served on the accepting thread: its request is then
// answered 503 by the pre-routing handler, whatever it asks.
thread_local bool t_over_capacity = false;

// cpp-httplib's own pool queues accepted connections without bound (a peer opening sockets
// without end holds one descriptor each). This one holds at most `max_connections`: served by
// `workers` threads or waiting for one. A connection past that cannot be dropped (its socket would
// leak) nor get a thread of its own: it is served at once on the accepting thread, flagged, and
// refused with 503 after reading its request (bounded by the read timeout).
class BoundedConnectionQueue : public httplib::TaskQueue {
 public:
  BoundedConnectionQueue(std::size_t workers, std::size_t max_connections) : max_connections_(max_connections) {
    for (std::size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }

  void enqueue(std::function<void()> fn) override {
    {
      std::lock_guard lock(mutex_);
      if (busy_ + jobs_.size() < max_connections_) {
        jobs_.push_back(std::move(fn));
        ready_.notify_one();
        return;
      }
    }
    t_over_capacity = true;
    fn();
    t_over_capacity = false;
  }

  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      shutdown_ = true;
    }
    ready_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return shutdown_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // shut down with nothing left to serve
        fn = std::move(jobs_.front());
        jobs_.pop_front();
        ++busy_;
      }
      fn();
      std::lock_guard lock(mutex_);
      --busy_;
    }
  }

  const std::size_t max_connections_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  std::size_t busy_ = 0;
  bool shutdown_ = false;
  std::vector<std::thread> threads_;
};

// Threads serving connections; the rest of max_connections wait for one of them.
constexpr std::size_t kMaxWorkers = 32;
// Connections the kernel queues before we accept them.
constexpr int kListenBacklog = 512;

}  // namespace

struct HttpServer::Impl {
  Dispatcher& dispatcher;
  NetworkOptions options;
  httplib::Server server;
  std::mutex dispatch_mutex;  // one message at a time: handlers need not be reentrant
  std::mutex sessions_mutex;
  std::map<std::string, std::string> sessions;  // id -> the protocol version it negotiated

  Impl(Dispatcher& d, NetworkOptions o) : dispatcher(d), options(std::move(o)) {}

  bool session_known(const std::string& id) {
    std::lock_guard lock(sessions_mutex);
    return sessions.count(id) > 0;
  }

  std::string session_version(const std::string& id) {
    std::lock_guard lock(sessions_mutex);
    auto it = sessions.find(id);
    return it == sessions.end() ? "" : it->second;
  }

  // Each element on its own, so the dispatcher's batch setting (a stdio notion: one session per
  // process) does not leak from one HTTP session into another.
  std::optional<Json> dispatch_batch(const Json& batch) {
    if (batch.empty()) return rpc::make_error(nullptr, rpc::kInvalidRequest, "Invalid Request: empty batch");
    Json replies = Json::array();
    std::lock_guard lock(dispatch_mutex);
    for (const Json& element : batch) {
      if (element.is_array()) {
        replies.push_back(rpc::make_error(nullptr, rpc::kInvalidRequest, "Invalid Request: nested batch"));
      } else if (auto reply = dispatcher.handle_value(element)) {
        replies.push_back(*reply);
      }
    }
    if (replies.empty()) return std::nullopt;
    return replies;
  }

  bool any_session() {
    std::lock_guard lock(sessions_mutex);
    return !sessions.empty();
  }

  // Host and Origin checks (DNS rebinding) and the protocol-version header; true if refused.
  bool refuse_request(const httplib::Request& req, httplib::Response& res) {
    if (!is_allowed_origin(req.get_header_value("Origin"))) {
      json_reply(res, 403, rpc::make_error(nullptr, rpc::kInvalidRequest, "Forbidden: foreign Origin"));
      return true;
    }
    std::string host = req.get_header_value("Host");
    if (!is_allowed_host(host, options.host)) {
      json_reply(res, 403, rpc::make_error(nullptr, rpc::kInvalidRequest, "Forbidden: foreign Host " + host));
      return true;
    }
    std::string version = req.get_header_value("MCP-Protocol-Version");
    const auto& known = options.protocol_versions;
    if (!version.empty() && !known.empty() && std::find(known.begin(), known.end(), version) == known.end()) {
      json_reply(res, 400, rpc::make_error(nullptr, rpc::kInvalidRequest,
                                           "Unsupported MCP-Protocol-Version: " + version));
      return true;
    }
    return false;
  }

  void post(const httplib::Request& req, httplib::Response& res) {
    if (refuse_request(req, res)) return;
    rpc::ParsedText parsed = rpc::parse_json_text(req.body);
    if (!parsed.ok) return json_reply(res, 400, parsed.error_reply);

    std::string session = req.get_header_value("Mcp-Session-Id");
    bool opens_session = is_initialize_request(parsed.value);
    if (!opens_session) {
      // Without a session id: a client that has not initialized yet (ping must be answered
      // then) is served while no session is open; once one is, a request without its id is a
      // client that lost it, and 400 tells it so.
      if (session.empty() && any_session()) {
        return json_reply(res, 400, rpc::make_error(nullptr, rpc::kInvalidRequest,
                                                    "Bad Request: Mcp-Session-Id header required"));
      }
      if (!session.empty() && !session_known(session)) {
        return json_reply(res, 404, rpc::make_error(nullptr, rpc::kInvalidRequest,
                                                    "Session not found: initialize again"));
      }
    }

    std::optional<Json> reply;
    if (parsed.value.is_array()) {
      // Batches belong to the session's protocol version: only 2025-03-26 has them.
      if (session_version(session) != "2025-03-26") {
        return json_reply(res, 400, rpc::make_error(nullptr, rpc::kInvalidRequest,
                                                    "Invalid Request: batches are not part of this protocol version"));
      }
      reply = dispatch_batch(parsed.value);
    } else {
      std::lock_guard lock(dispatch_mutex);
      reply = dispatcher.handle_value(parsed.value);
    }
    if (opens_session && reply && reply->contains("result")) {
      session = new_session_id();
      std::lock_guard lock(sessions_mutex);
      sessions[session] = reply->at("result").value("protocolVersion", std::string());
      res.set_header("Mcp-Session-Id", session);
    }
    if (!reply) {
      res.status = 202;  // only notifications or responses: accepted, nothing to say
      return;
    }
    json_reply(res, 200, *reply);
  }

  void erase(const httplib::Request& req, httplib::Response& res) {
    if (refuse_request(req, res)) return;
    std::string session = req.get_header_value("Mcp-Session-Id");
    if (session.empty()) {
      res.status = 400;
      return;
    }
    std::lock_guard lock(sessions_mutex);
    res.status = sessions.erase(session) ? 204 : 404;
  }
};

HttpServer::HttpServer(Dispatcher& dispatcher, NetworkOptions options)
    : impl_(std::make_unique<Impl>(dispatcher, std::move(options))) {
  Impl& impl = *impl_;
  impl.server.set_payload_max_length(impl.options.max_message_bytes);
  // Idle bounds, at most 5 s: a request must keep arriving (read timeout) and a kept-alive
  // connection waits that long for the next one, so a silent client does not hold a worker (nor,
  // past the bound, the accepting thread) for long.
  int idle = std::clamp(impl.options.idle_timeout_seconds, 1, 5);
  impl.server.set_read_timeout(idle, 0);
  impl.server.set_keep_alive_timeout(idle);
  std::size_t max_connections = std::max<std::size_t>(impl.options.max_connections, 1);
  impl.server.new_task_queue = [max_connections] {
    return new BoundedConnectionQueue(std::min(max_connections, kMaxWorkers), max_connections);
  };
  impl.server.set_pre_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (!t_over_capacity) return httplib::Server::HandlerResponse::Unhandled;
    json_reply(res, 503, rpc::make_error(nullptr, rpc::kInternalError, "Service Unavailable: too many connections"));
    res.set_header("Connection", "close");
    return httplib::Server::HandlerResponse::Handled;
  });
  impl.server.Post(impl.options.path, [&impl](const httplib::Request& q, httplib::Response& r) { impl.post(q, r); });
  impl.server.Delete(impl.options.path, [&impl](const httplib::Request& q, httplib::Response& r) { impl.erase(q, r); });
  impl.server.Get(impl.options.path, [](const httplib::Request&, httplib::Response& r) {
    r.status = 405;
    r.set_header("Allow", "POST, DELETE");
  });
}

HttpServer::~HttpServer() = default;

void HttpServer::run() {
  Impl& impl = *impl_;
  // cpp-httplib 0.11 listens with a backlog of 5: with a few hundred clients connecting at once the
  // kernel then resets connections. Listening again on the bound socket only sets a larger one.
  auto listen_fd = std::make_shared<int>(-1);
  impl.server.set_socket_options([listen_fd](int sock) {
    httplib::default_socket_options(sock);
    *listen_fd = sock;
  });
  int port = impl.options.port;
  if (port == 0) {
    port = impl.server.bind_to_any_port(impl.options.host);
    if (port < 0) throw std::runtime_error(fmt::format("cannot listen on {}: no free port", impl.options.host));
  } else if (!impl.server.bind_to_port(impl.options.host, port)) {
    throw std::runtime_error(fmt::format("cannot listen on {}:{} (in use, or not a local address)",
                                         impl.options.host, port));
  }
  if (*listen_fd >= 0) ::listen(*listen_fd, kListenBacklog);
  if (impl.options.on_listening) impl.options.on_listening(port);
  impl.server.listen_after_bind();
}

void HttpServer::stop() { impl_->server.stop(); }

}  // namespace mcpref
