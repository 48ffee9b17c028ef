#include "harness/transport/http/legacy_sse_server.hpp"

#include "harness/transport/http/httplib_support.hpp"
#include "harness/transport/http/sse_parser.hpp"

#include <fmt/format.h>
#include <httplib.h>

namespace mcpspec::transport::http {

using nlohmann::json;

namespace {

// The stream lives at most this long (the scenario, which stops the server, ends long before).
constexpr auto kMaxStream = std::chrono::minutes(10);
// An idle stream sends an SSE comment this often: the only way to notice a client that went away.
constexpr auto kKeepAlive = std::chrono::seconds(1);

}  // namespace

LegacySseServer::LegacySseServer(ClientSideOptions options, EventQueue& events)
    : options_(std::move(options)), events_(events) {}

LegacySseServer::~LegacySseServer() { stop(); }

void LegacySseServer::note(const std::string& line) { events_.push(Event{Event::Type::Stderr, "http: " + line, {}}); }

void LegacySseServer::start() {
  server_ = std::make_unique<httplib::Server>();
  server_->set_payload_max_length(options_.max_message_bytes);
  server_->Get("/sse", [this](const httplib::Request& q, httplib::Response& r) { on_sse(q, r); });
  server_->Post("/messages", [this](const httplib::Request& q, httplib::Response& r) { on_message(q, r); });
  server_->set_error_handler([this](const httplib::Request& q, httplib::Response& r) {
    if (r.status == 413)
      note(fmt::format("{} {}: body over --max-message-bytes ({}) -> 413", q.method, q.path, options_.max_message_bytes));
    else if (q.path != "/sse" && q.path != "/messages") {
      note(fmt::format("{} {} (neither the SSE URL nor the endpoint) -> {}", q.method, q.path, r.status));
      record(q, r.status, {{"to_endpoint", false}});
    }
  });
  port_ = listen_for_client(*server_, thread_, 16, [this](const httplib::Request& q, int status, const std::string& why) {
    note(fmt::format("{} {} refused ({}): {}", q.method, q.path, status, why));
    record(q, status, {{"refused", why}});
  });
}

std::string LegacySseServer::url() const { return fmt::format("http://127.0.0.1:{}/sse", port_); }

void LegacySseServer::record(const httplib::Request& req, int status, json extra) {
  std::lock_guard<std::mutex> lock(mu_);
  if (records_.size() >= 1000) return;
  json r = {{"method", req.method},
            {"path", req.path},
            {"headers", request_headers(req)},
            {"status", status},
            {"ms", static_cast<long long>(ms_since(started_))}};
  for (auto& [k, v] : extra.items()) r[k] = v;
  records_.push_back(std::move(r));
}

bool LegacySseServer::end_current(const std::string& id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end() || !it->second.alive) return false;
  it->second.alive = false;
  cv_.notify_all();
  return true;
}

void LegacySseServer::on_sse(const httplib::Request& req, httplib::Response& res) {
  std::string id = new_session_id();
  {
    std::lock_guard<std::mutex> lock(mu_);
    // A new stream is a new session; the scenario's messages go to the newest one.
    sessions_[id] = Session{};
    current_ = id;
    ++created_;
  }
  record(req, 200, json::object());
  note("GET /sse -> 200 text/event-stream (endpoint /messages?session_id=" + id + ")");
  res.status = 200;
  res.set_header("Cache-Control", "no-cache");
  auto pos = std::make_shared<std::size_t>(0);
  auto sent_endpoint = std::make_shared<bool>(false);
  auto until = Clock::now() + kMaxStream;
  res.set_chunked_content_provider(
      "text/event-stream",
      [this, id, pos, sent_endpoint, until](std::size_t, httplib::DataSink& sink) {
        if (!*sent_endpoint) {
          *sent_endpoint = true;
          std::string ev = "event: endpoint\ndata: /messages?session_id=" + id + "\n\n";
          return sink.write(ev.data(), ev.size());
        }
        std::unique_lock<std::mutex> lock(mu_);
        Session& s = sessions_[id];
        cv_.wait_for(lock, kKeepAlive, [&] { return stopping_ || s.aborted || s.complete || *pos < s.messages.size(); });
        if (stopping_ || s.aborted || Clock::now() >= until) return false;
        std::string out;
        while (*pos < s.messages.size()) out += sse_message_event(s.messages[(*pos)++]);
        bool end = s.complete;
        lock.unlock();
        if (out.empty() && !end) out = ": keep-alive\n\n";
        if (!out.empty() && !sink.write(out.data(), out.size())) return false;
        if (end) sink.done();
        return true;
      },
      [this, id](bool) {
        std::lock_guard<std::mutex> lock(mu_);
        if (end_current(id))
          events_.push(Event{Event::Type::Closed, "the client closed its SSE stream (GET /sse)", {}});
      });
}

void LegacySseServer::on_message(const httplib::Request& req, httplib::Response& res) {
  std::string id = req.get_param_value("session_id");
  json extra = {{"body", json::parse(req.body, nullptr, false)}};
  if (extra["body"].is_discarded()) extra["body"] = nullptr;
  bool known;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(id);
    known = it != sessions_.end() && it->second.alive;
    extra["to_endpoint"] = known && id == current_;
  }
  if (!known) {
    res.status = 404;
    note("POST /messages with " + (id.empty() ? std::string("no session_id") : "an unknown session_id") + " -> 404");
    record(req, 404, extra);
    return;
  }
  events_.push(carried_frame(req.body, "a POST body", {"BASE-01"}));
  res.status = 202;
  res.set_content("Accepted", "text/plain");
  note("POST /messages -> 202");
  record(req, 202, extra);
}

void LegacySseServer::deliver(const std::string& text, Deadline) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sessions_.find(current_);
  if (it == sessions_.end() || !it->second.alive)
    throw TransportError(created_ == 0 ? "the client has not opened its SSE stream (no GET /sse yet)"
                                       : "the client's SSE stream has ended");
  it->second.messages.push_back(text);
  cv_.notify_all();
}

void LegacySseServer::crash() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!end_current(current_)) return;
    sessions_[current_].aborted = true;
  }
  note("the server dropped the SSE stream (its session_id now gets 404)");
  events_.push(Event{Event::Type::Closed, "the harness dropped the SSE stream abruptly", {}});
}

void LegacySseServer::close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!end_current(current_)) return;
    sessions_[current_].complete = true;
  }
  note("the server ended the SSE stream (its session_id now gets 404)");
  events_.push(Event{Event::Type::Closed, "the harness ended the SSE stream", {}});
}

bool LegacySseServer::session_open() const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sessions_.find(current_);
  return it != sessions_.end() && it->second.alive;
}

int LegacySseServer::sessions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return created_;
}

json LegacySseServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  json a = json::array();
  for (const auto& r : records_) a.push_back(r);
  return a;
}

void LegacySseServer::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ && !server_) return;
    stopping_ = true;
    cv_.notify_all();
  }
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
  server_.reset();
}

}  // namespace mcpspec::transport::http
