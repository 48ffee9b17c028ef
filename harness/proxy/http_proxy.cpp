#include "harness/proxy/http_proxy.hpp"

#include "harness/protocol/peer_json.hpp"
#include "harness/proxy/trace.hpp"
#include "harness/transport/http/httplib_support.hpp"
#include "harness/transport/http/sse_parser.hpp"
#include "harness/transport/http/url.hpp"
#include "harness/util/json_text.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace mcpspec::proxy {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

// Headers that describe one connection, not the message: each hop sets its own.
bool hop_by_hop(const std::string& lower_name) {
  static const std::set<std::string> names = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
                                              "te", "trailer", "transfer-encoding", "upgrade", "content-length", "host"};
  return names.count(lower_name) > 0;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// httplib records the peer's and its own address among a request's headers; they were never sent.
bool pseudo_header(const std::string& lower_name) {
  return lower_name == "remote_addr" || lower_name == "remote_port" || lower_name == "local_addr" ||
         lower_name == "local_port";
}

json headers_json(const httplib::Headers& h) {
  json out = json::object();
  for (const auto& [k, v] : h) {
    const std::string name = lower(k);
    if (!pseudo_header(name)) out[name] = v;
  }
  return out;
}

bool is_initialize(const std::string& body) {
  auto read = protocol::read_peer_json(body);
  return read.status == protocol::PeerJson::Status::Ok && read.value.is_object() &&
         read.value.value("method", "") == "initialize";
}

// One upstream exchange whose answer is being passed on: the upstream thread fills it, the thread
// answering the host drains it.
struct Exchange {
  std::mutex mu;
  std::condition_variable cv;
  bool have_head = false, done = false, failed = false, downstream_gone = false;
  int status = 0;
  httplib::Headers headers;
  std::deque<std::string> chunks;
  std::string error;
  std::unique_ptr<httplib::Client> client;
  std::thread thread;
};

}  // namespace

std::string http_message_text(const std::string& body) {
  if (body.find('\n') == std::string::npos && body.find('\r') == std::string::npos) return body;
  auto read = protocol::read_peer_json(body);
  if (read.status == protocol::PeerJson::Status::Ok) return compact(read.value);
  std::string t = body;
  std::replace(t.begin(), t.end(), '\n', ' ');
  std::replace(t.begin(), t.end(), '\r', ' ');
  return t;
}

struct HttpProxy::Impl {
  HttpProxyOptions o;
  std::function<void(const TrafficFinding&)> on_finding;
  transport::http::Url upstream;
  std::string base_path;  // the upstream URL's path without a trailing '/'
  Clock::time_point started = Clock::now();

  httplib::Server server;
  std::thread server_thread;
  std::unique_ptr<TraceWriter> trace;

  // Judges: one per MCP session, in the order the sessions began.
  mutable std::mutex judge_mu;
  std::vector<std::unique_ptr<TrafficJudge>> judges;
  std::map<std::string, TrafficJudge*> by_session;  // Mcp-Session-Id -> its judge
  std::map<const TrafficJudge*, int> number;        // 1, 2, ...: the trace's "session"
  bool any_must = false;

  std::mutex live_mu;
  std::set<std::shared_ptr<Exchange>> live;  // exchanges whose answer is still being passed on
  std::atomic<bool> stopping{false};
  bool stopped = false;

  double now_ms() const { return std::chrono::duration<double, std::milli>(Clock::now() - started).count(); }

  // The judge of a request: its session's, a fresh one for an initialize without a session (the
  // answer's Mcp-Session-Id will name it), else the one of requests that carry no session (the
  // stateless 2026-07-28 era, or a server that mints no session ids).
  TrafficJudge* judge_for(const std::string& session, bool initialize) {
    std::lock_guard<std::mutex> lock(judge_mu);
    if (!session.empty()) {
      auto it = by_session.find(session);
      if (it != by_session.end()) return it->second;
    }
    if (initialize || judges.empty()) {
      judges.push_back(std::make_unique<TrafficJudge>());
      number[judges.back().get()] = static_cast<int>(judges.size());
      if (!session.empty()) by_session[session] = judges.back().get();
      return judges.back().get();
    }
    if (!session.empty()) return by_session[session] = judges.back().get();
    return judges.back().get();
  }

  void name_session(TrafficJudge* j, const std::string& session) {
    if (session.empty()) return;
    std::lock_guard<std::mutex> lock(judge_mu);
    by_session.emplace(session, j);
  }

  // Records a message and judges it. Both happen under one lock, so the trace holds the messages
  // in the order they were judged and `validate --trace` finds the same things at the same indexes.
  void judge(TrafficJudge* j, Direction dir, const std::string& text, json http) {
    std::vector<TrafficFinding> found;
    {
      std::lock_guard<std::mutex> lock(judge_mu);
      const double t = now_ms();
      http["session"] = number[j];
      if (trace) trace->write({t, dir, text, std::move(http)});
      if (text.size() > o.max_judged_body) j->skip(dir, text.size(), t);
      else found = j->judge(dir, http_message_text(text), t);
      for (const auto& f : found)
        if (f.finding.level == Level::Must) any_must = true;
    }
    for (const auto& f : found) on_finding(f);
  }

  // An exchange without a message, kept in the trace for its HTTP facts.
  void record_metadata(TrafficJudge* j, Direction dir, json http) {
    if (!trace) return;
    std::lock_guard<std::mutex> lock(judge_mu);
    http["session"] = number[j];
    trace->write({now_ms(), dir, "", std::move(http)});
  }

  void event(TrafficJudge* j, const std::string& text) {
    std::lock_guard<std::mutex> lock(judge_mu);
    j->event(text, now_ms());
  }

  std::shared_ptr<Exchange> forward(const httplib::Request& req) {
    auto x = std::make_shared<Exchange>();
    x->client = std::make_unique<httplib::Client>(upstream.host, upstream.port);
    x->client->set_connection_timeout(std::chrono::milliseconds(o.connect_timeout_ms));
    x->client->set_read_timeout(std::chrono::milliseconds(o.read_timeout_ms));
    x->client->set_write_timeout(std::chrono::milliseconds(o.read_timeout_ms));
    x->client->set_follow_location(false);  // a redirect is the host's to follow, as without us
    // Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm and the
    // peer's delayed ACK held each small message back about 40 ms.
    x->client->set_tcp_nodelay(true);
    auto up = std::make_shared<httplib::Request>();
    up->method = req.method;
    up->path = base_path + req.target;
    for (const auto& [k, v] : req.headers)
      if (const std::string name = lower(k); !hop_by_hop(name) && !pseudo_header(name)) up->headers.emplace(k, v);
    up->body = req.body;
    std::weak_ptr<Exchange> wx = x;
    up->response_handler = [wx](const httplib::Response& r) {
      auto x = wx.lock();
      if (!x) return false;
      std::lock_guard<std::mutex> lock(x->mu);
      x->status = r.status;
      x->headers = r.headers;
      x->have_head = true;
      x->cv.notify_all();
      return !x->downstream_gone;
    };
    up->content_receiver = [wx](const char* data, size_t n, uint64_t, uint64_t) {
      auto x = wx.lock();
      if (!x) return false;
      std::lock_guard<std::mutex> lock(x->mu);
      if (x->downstream_gone) return false;
      x->chunks.emplace_back(data, n);
      x->cv.notify_all();
      return true;
    };
    x->thread = std::thread([x_raw = x.get(), up] {
      httplib::Response r;
      httplib::Error e = httplib::Error::Success;
      bool ok = x_raw->client->send(*up, r, e);
      std::lock_guard<std::mutex> lock(x_raw->mu);
      if (!ok && !x_raw->downstream_gone) {
        x_raw->failed = true;
        x_raw->error = httplib::to_string(e);
      }
      if (ok && !x_raw->have_head) {  // an answer without a body never reached the handler
        x_raw->status = r.status;
        x_raw->headers = r.headers;
        x_raw->have_head = true;
      }
      x_raw->done = true;
      x_raw->cv.notify_all();
    });
    {
      std::lock_guard<std::mutex> lock(live_mu);
      live.insert(x);
    }
    return x;
  }

  void finish(const std::shared_ptr<Exchange>& x) {
    {
      std::lock_guard<std::mutex> lock(x->mu);
      x->downstream_gone = true;
    }
    x->client->stop();  // an upstream stream that is silent would otherwise hold the thread
    if (x->thread.joinable()) x->thread.join();
    std::lock_guard<std::mutex> lock(live_mu);
    live.erase(x);
  }

  // What names a request's MCP session: Streamable HTTP's Mcp-Session-Id header, else the legacy
  // HTTP+SSE transport's sessionId query parameter (the endpoint event of its GET stream names it).
  static std::string session_of(const httplib::Request& req) {
    std::string id = req.get_header_value("Mcp-Session-Id");
    if (id.empty() && req.has_param("sessionId")) id = "legacy:" + req.get_param_value("sessionId");
    return id;
  }

  // The legacy endpoint event's URL carries the session its POSTs will name.
  static std::string legacy_session_of_endpoint(const std::string& url) {
    auto q = url.find("sessionId=");
    if (q == std::string::npos) return "";
    std::string id = url.substr(q + 10);
    auto amp = id.find('&');
    if (amp != std::string::npos) id.resize(amp);
    return id.empty() ? "" : "legacy:" + id;  // session ids are URL-safe (the transports mint UUIDs or hex)
  }

  void handle(const httplib::Request& req, httplib::Response& res) {
    const std::string session = session_of(req);
    const bool post_with_body = req.method == "POST" && !req.body.empty();
    TrafficJudge* j = judge_for(session, post_with_body && is_initialize(req.body));
    if (post_with_body)
      judge(j, Direction::ClientToServer, req.body,
            {{"method", req.method}, {"path", req.target}, {"headers", headers_json(req.headers)}});
    else
      record_metadata(j, Direction::ClientToServer,
                      {{"method", req.method}, {"path", req.target}, {"headers", headers_json(req.headers)}});

    auto x = forward(req);
    // The answer's head: within the connect and read timeouts, or when the proxy stops.
    {
      std::unique_lock<std::mutex> lock(x->mu);
      x->cv.wait_for(lock, std::chrono::milliseconds(o.connect_timeout_ms + o.read_timeout_ms),
                     [&] { return x->have_head || x->done || stopping.load(); });
      if (!x->have_head) {
        const std::string why = x->failed ? x->error : stopping ? "the proxy is stopping" : "no answer in time";
        lock.unlock();
        finish(x);
        res.status = 502;
        res.set_content(fmt::format("mcpspec proxy: the upstream server {} did not answer: {}\n", upstream.text(), why),
                        "text/plain");
        event(j, fmt::format("{} {}: upstream did not answer ({})", req.method, req.target, why));
        return;
      }
    }
    res.status = x->status;
    std::string content_type;
    for (const auto& [k, v] : x->headers) {
      if (hop_by_hop(lower(k))) continue;
      if (lower(k) == "content-type") {
        content_type = v;  // set below, once: httplib's content provider writes its own
        continue;
      }
      res.headers.emplace(k, v);
    }
    const std::string answer_session = [&] {
      for (const auto& [k, v] : x->headers)
        if (lower(k) == "mcp-session-id") return v;
      return std::string();
    }();
    name_session(j, answer_session);
    json head = {{"status", x->status}, {"content_type", content_type}, {"headers", headers_json(x->headers)}};

    if (lower(content_type).rfind("text/event-stream", 0) == 0) {
      stream(req, res, x, j, head);
      return;
    }
    // Any other answer is read whole and passed on with its length.
    std::string body;
    {
      std::unique_lock<std::mutex> lock(x->mu);
      x->cv.wait_for(lock, std::chrono::milliseconds(o.read_timeout_ms), [&] { return x->done || stopping.load(); });
      for (auto& c : x->chunks) body += c;
      x->chunks.clear();
    }
    finish(x);
    res.body = body;
    if (!content_type.empty()) res.set_header("Content-Type", content_type);
    if (!body.empty() && lower(content_type).rfind("application/json", 0) == 0)
      judge(j, Direction::ServerToClient, body, head);
    else
      record_metadata(j, Direction::ServerToClient, head);  // a 202, an error page: no message
  }

  // A text/event-stream answer, passed on chunk by chunk as it arrives; each event with data is
  // judged after its bytes went on.
  void stream(const httplib::Request&, httplib::Response& res, const std::shared_ptr<Exchange>& x, TrafficJudge* j,
              const json& head) {
    auto parser = std::make_shared<transport::http::SseParser>(o.max_judged_body);
    res.set_chunked_content_provider(
        head.value("content_type", "text/event-stream"),
        [this, x, j, parser, head](size_t, httplib::DataSink& sink) {
          while (true) {
            std::string chunk;
            {
              std::unique_lock<std::mutex> lock(x->mu);
              // Wake now and then to notice a host that went away during a silent stream.
              x->cv.wait_for(lock, std::chrono::milliseconds(500),
                             [&] { return !x->chunks.empty() || x->done || stopping.load(); });
              if (!x->chunks.empty()) {
                chunk = std::move(x->chunks.front());
                x->chunks.pop_front();
              } else if (x->done || stopping.load()) {
                lock.unlock();
                sink.done();
                return true;
              } else {
                lock.unlock();
                if (!sink.is_writable()) return false;
                continue;
              }
            }
            if (!sink.write(chunk.data(), chunk.size())) return false;
            std::vector<transport::http::SseEvent> events;
            parser->feed(chunk, events);
            for (const auto& e : events) {
              if (e.oversize) continue;
              json meta = head;
              if (e.id) meta["sse_id"] = *e.id;
              if (e.type() != "message") meta["sse_event"] = e.type();
              // A priming event (an id, and no data or empty data) carries no message.
              if (!e.has_data || e.data.empty()) {
                record_metadata(j, Direction::ServerToClient, meta);
                continue;
              }
              // The legacy transport's endpoint event carries a URL, not a message.
              if (e.type() == "endpoint") {
                meta["endpoint"] = e.data;
                name_session(j, legacy_session_of_endpoint(e.data));
                record_metadata(j, Direction::ServerToClient, meta);
                continue;
              }
              judge(j, Direction::ServerToClient, e.data, meta);
            }
          }
        },
        [this, x](bool) { finish(x); });
  }
};

HttpProxy::HttpProxy(HttpProxyOptions options, std::function<void(const TrafficFinding&)> on_finding)
    : impl_(std::make_unique<Impl>()) {
  impl_->o = std::move(options);
  impl_->on_finding = std::move(on_finding);
  impl_->upstream = transport::http::parse_url(impl_->o.upstream);
  if (impl_->upstream.scheme != "http")
    throw std::invalid_argument("the upstream must be an http:// URL (got " + impl_->o.upstream + ")");
  std::string path = impl_->upstream.target;
  if (path.find('?') != std::string::npos)
    throw std::invalid_argument("the upstream URL must not carry a query (got " + impl_->o.upstream + ")");
  while (!path.empty() && path.back() == '/') path.pop_back();
  impl_->base_path = path;
}

HttpProxy::~HttpProxy() { stop(); }

int HttpProxy::start() {
  auto& d = *impl_;
  if (!d.o.record_path.empty()) d.trace = std::make_unique<TraceWriter>(d.o.record_path);
  // A host keeps its connection for a whole session (the library's default closes it after five
  // requests). An idle connection is still closed after RequestLimits::kIdleSeconds (listen_guarded):
  // stop() waits for the connections the host keeps open, at most that long.
  d.server.set_keep_alive_max_count(100000);
  // Bodies are read whole before they go on: without a bound a host could make the proxy hold any size.
  d.server.set_payload_max_length(d.o.max_request_body);
  d.server.set_write_timeout(std::chrono::milliseconds(d.o.read_timeout_ms));
  auto handler = [this](const httplib::Request& req, httplib::Response& res) { impl_->handle(req, res); };
  d.server.Get(".*", handler);
  d.server.Post(".*", handler);
  d.server.Put(".*", handler);
  d.server.Patch(".*", handler);
  d.server.Delete(".*", handler);
  d.server.Options(".*", handler);
  d.started = Clock::now();
  try {
    const int threads = std::max(4, d.o.max_connections);
    return transport::http::listen_guarded(
        d.server, d.o.listen_host, d.o.listen_port, d.server_thread, threads,
        [this](const httplib::Request& q, int status, const std::string& why) {
          if (impl_->o.on_refused) impl_->o.on_refused(fmt::format("{} {} refused ({}): {}", q.method, q.path, status, why));
        });
  } catch (const std::exception& e) {
    throw std::runtime_error(e.what());
  }
}

void HttpProxy::stop() {
  auto& d = *impl_;
  if (d.stopped) return;
  d.stopped = true;
  d.stopping = true;
  std::vector<std::shared_ptr<Exchange>> open;
  {
    std::lock_guard<std::mutex> lock(d.live_mu);
    open.assign(d.live.begin(), d.live.end());
  }
  for (auto& x : open) {
    std::lock_guard<std::mutex> lock(x->mu);
    x->cv.notify_all();
  }
  for (auto& x : open) x->client->stop();
  d.server.stop();
  if (d.server_thread.joinable()) d.server_thread.join();
}

std::vector<ScenarioResult> HttpProxy::results(const std::string& target, double duration_ms) const {
  std::lock_guard<std::mutex> lock(impl_->judge_mu);
  std::vector<ScenarioResult> out;
  for (std::size_t i = 0; i < impl_->judges.size(); ++i) {
    out.push_back(impl_->judges[i]->result(target, duration_ms));
    if (impl_->judges.size() > 1) out.back().id += "-" + std::to_string(i + 1);
  }
  return out;
}

std::string HttpProxy::version() const {
  std::lock_guard<std::mutex> lock(impl_->judge_mu);
  return impl_->judges.empty() ? TrafficJudge().version() : impl_->judges.front()->version();
}

bool HttpProxy::any_must() const {
  std::lock_guard<std::mutex> lock(impl_->judge_mu);
  return impl_->any_must;
}

}  // namespace mcpspec::proxy
