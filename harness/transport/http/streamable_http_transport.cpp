#include "harness/transport/http/streamable_http_transport.hpp"

#include "harness/protocol/era.hpp"
#include "harness/transport/http/sse_parser.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cctype>

namespace mcpspec::transport::http {

using nlohmann::json;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string clip(const std::string& s, std::size_t n = 300) { return s.size() > n ? s.substr(0, n) + "..." : s; }

// The id of a response inside `text` (object or batch array) equals `id_text`.
bool answers(const json& msg, const std::string& id_text) {
  if (msg.is_array()) {
    for (const auto& m : msg)
      if (answers(m, id_text)) return true;
    return false;
  }
  return msg.is_object() && !msg.contains("method") && msg.contains("id") && msg["id"].dump() == id_text;
}

}  // namespace

StreamableHttpTransport::StreamableHttpTransport(HttpTransportOptions options)
    : options_(std::move(options)), url_(options_.url) {}

StreamableHttpTransport::~StreamableHttpTransport() { stop(); }

std::string StreamableHttpTransport::describe() const {
  std::string s = "Streamable HTTP " + url_.text();
  if (served_) s += " (" + served_->describe() + ")";
  return s;
}

std::string StreamableHttpTransport::session_id() const {
  std::lock_guard<std::mutex> lock(mu_);
  return session_id_;
}

std::string StreamableHttpTransport::protocol_header() const {
  std::lock_guard<std::mutex> lock(mu_);
  return protocol_header_;
}

void StreamableHttpTransport::start() {
  if (options_.spawn) {
    served_ = std::make_unique<ServedProcess>(*options_.spawn, options_.port_env, events_);
    served_->start(Deadline::after_ms(options_.startup_timeout_ms));
    url_.host = "127.0.0.1";
    url_.port = served_->port();
    note("server listening on " + url_.text());
    return;
  }
  // A wrong URL is a harness ERROR with a clear reason, not a scenario failure later on.
  HttpConnection probe;
  probe.connect(url_.host, url_.port, Deadline::after_ms(options_.connect_timeout_ms));
}

Headers StreamableHttpTransport::common_headers() const {
  Headers h;
  std::lock_guard<std::mutex> lock(mu_);
  if (!session_id_.empty()) h.emplace_back("Mcp-Session-Id", session_id_);
  if (!protocol_header_.empty()) h.emplace_back("MCP-Protocol-Version", protocol_header_);
  if (!options_.origin.empty()) h.emplace_back("Origin", options_.origin);
  h.insert(h.end(), options_.headers.begin(), options_.headers.end());
  return h;
}

void StreamableHttpTransport::launch(std::shared_ptr<HttpConnection> conn, std::function<void()> body,
                                     std::string request_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return;
  streams_.emplace_back();
  Stream& s = streams_.back();
  s.conn = std::move(conn);
  s.request_id = std::move(request_id);
  std::atomic<bool>* done = &s.done;
  s.thread = std::thread([body = std::move(body), done] {
    body();
    *done = true;
  });
}

void StreamableHttpTransport::reap_finished() {
  std::list<Stream> finished;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = streams_.begin(); it != streams_.end();) {
      if (it->done) {
        auto next = std::next(it);
        finished.splice(finished.end(), streams_, it);
        it = next;
      } else {
        ++it;
      }
    }
  }
  for (auto& s : finished)
    if (s.thread.joinable()) s.thread.join();
}

void StreamableHttpTransport::send(const std::string& frame, Deadline deadline) { post(frame, deadline, false); }

void StreamableHttpTransport::send_raw(const std::string& bytes, Deadline deadline) { post(bytes, deadline, true); }

void StreamableHttpTransport::post(const std::string& body, Deadline deadline, bool raw) {
  const std::uint64_t send_no = ++sends_;
  if (stopping_) throw TransportError("the transport is stopped");
  reap_finished();
  std::string request_id, what = raw ? "raw bytes" : "message";
  bool initialize = false, initialized_note = false;
  Headers modern;
  try {
    json msg = json::parse(body);
    if (msg.is_object() && msg.contains("method") && msg["method"].is_string()) {
      what = msg["method"].get<std::string>();
      initialize = what == "initialize";
      initialized_note = what == "notifications/initialized";
      if (msg.contains("id")) request_id = msg["id"].dump();
      if (!raw && cancel_by_closing(msg)) return;
      if (!raw) {
        std::lock_guard<std::mutex> lock(mu_);
        modern = modern_request_headers(msg, param_headers_, modern_version_);
        if (!modern.empty() && protocol::is_modern(modern.front().second)) {
          modern_ = true;
          modern_version_ = modern.front().second;
        }
        if (!modern.empty() && what == "tools/list" && !request_id.empty() && tools_list_ids_.size() < 4096)
          tools_list_ids_.insert(request_id);
      }
      if (what == "notifications/cancelled" && msg.contains("params") && msg["params"].is_object() &&
          msg["params"].contains("requestId")) {
        // We gave up on that request: a stream of it that ends early is not resumed.
        std::lock_guard<std::mutex> lock(mu_);
        if (cancelled_.size() >= 4096) cancelled_.clear();
        cancelled_.insert(msg["params"]["requestId"].dump());
      }
    } else if (msg.is_object() && msg.contains("id")) {
      what = "response " + msg["id"].dump();
    } else if (msg.is_array()) {
      what = "batch of " + std::to_string(msg.size());
    }
  } catch (const json::exception&) {
  }
  HttpRequest r;
  r.method = "POST";
  r.target = url_.target;
  r.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
  for (auto& h : common_headers()) r.headers.push_back(std::move(h));
  for (auto& h : modern) r.headers.push_back(std::move(h));
  r.body = body;
  auto conn = std::make_shared<HttpConnection>();
  ++answer_streams_;  // before the bytes go out: an answer may be read the moment they do
  {
    std::lock_guard<std::mutex> lock(heard_mu_);
    ++posts_unheard_;
  }
  try {
    conn->connect(url_.host, url_.port, Deadline::after_ms(options_.connect_timeout_ms).earliest(deadline));
    conn->write_all(format_request(r, url_.host_header()), deadline);
  } catch (...) {
    post_heard();
    stream_ended(answer_streams_);
    throw;
  }
  launch(
      conn,
      [this, conn, what, request_id, initialize, initialized_note, send_no] {
        read_post(conn, what, request_id, initialize, initialized_note, send_no);  // resumptions included
        stream_ended(answer_streams_);
      },
      request_id);
}

bool StreamableHttpTransport::cancel_by_closing(const json& msg) {
  if (!msg.is_object() || msg.value("method", json()) != "notifications/cancelled" || !msg.contains("params") ||
      !msg["params"].is_object() || !msg["params"].contains("requestId"))
    return false;
  const std::string id = msg["params"]["requestId"].dump();
  std::shared_ptr<HttpConnection> conn;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!modern_) return false;
    for (auto& s : streams_)
      if (s.request_id == id && !s.done) conn = s.conn;
  }
  if (conn) conn->abort();
  note(conn ? "notifications/cancelled for " + clip(id, 80) +
                  ": closed that request's response stream instead (how a modern client cancels over HTTP)"
            : "notifications/cancelled for " + clip(id, 80) + ": no open response stream of that request to close");
  return true;
}

void StreamableHttpTransport::post_heard() {
  std::lock_guard<std::mutex> lock(heard_mu_);
  if (posts_unheard_ > 0 && --posts_unheard_ == 0) heard_cv_.notify_all();
}

bool StreamableHttpTransport::await_heard(Deadline deadline) {
  std::unique_lock<std::mutex> lock(heard_mu_);
  return heard_cv_.wait_for(lock, std::chrono::milliseconds(deadline.remaining_ms()),
                            [this] { return posts_unheard_ == 0; });
}

void StreamableHttpTransport::stream_ended(std::atomic<int>& open) {
  // Everything the stream carried was queued before this, so a receiver that sees the narrowed
  // reach() and drains the queue has all of it.
  if (--open == 0) events_.push(Event{Event::Type::Settled, "", {}});
}

Reach StreamableHttpTransport::reach() const {
  // Order matters: a POST thread starts the GET stream before it stops counting itself.
  if (answer_streams_ > 0) return Reach::Anything;
  return get_streams_ > 0 ? Reach::NoAnswers : Reach::Nothing;
}

void StreamableHttpTransport::read_post(std::shared_ptr<HttpConnection> conn, std::string what, std::string request_id,
                                        bool initialize, bool initialized_note, std::uint64_t send_no) {
  Deadline dl = Deadline::after_ms(options_.stream_max_ms);
  // The status counts as heard once read, or once it never can be (an error below).
  struct Heard {
    StreamableHttpTransport* t;
    bool done = false;
    void now() {
      if (!done) t->post_heard();
      done = true;
    }
    ~Heard() { now(); }
  } heard{this};
  try {
    HttpHead head = conn->read_head(dl);
    heard.now();
    std::string ct = lower(head.header("Content-Type"));
    std::string sid = head.header("Mcp-Session-Id");
    note("POST " + what + " -> " + std::to_string(head.status) + (ct.empty() ? "" : " " + ct) +
         (sid.empty() ? "" : " (Mcp-Session-Id: " + clip(sid, 80) + ")"));
    if (initialize && head.status / 100 == 2 && !sid.empty()) {
      std::lock_guard<std::mutex> lock(mu_);
      if (session_id_.empty() || !options_.keep_session) session_id_ = sid;
      else if (sid != session_id_) note("kept session " + clip(session_id_, 80) + " (keep_session); not moving to " + clip(sid, 80));
    }
    if (ct.rfind("text/event-stream", 0) == 0 && head.status / 100 == 2) {
      std::string last_id;
      long long retry_ms = -1;
      bool answered = read_sse(*conn, "POST " + what, request_id, initialize, last_id, retry_ms);
      bool cancelled;
      {
        std::lock_guard<std::mutex> lock(mu_);
        cancelled = cancelled_.count(request_id) > 0;
      }
      if (!answered && !request_id.empty() && !stopping_) {
        if (cancelled) {
          note("the POST " + what + " stream ended without the response; the request was cancelled, so not resuming");
        } else if (!last_id.empty() && options_.resume_attempts > 0) {
          note("the POST " + what + " stream ended before its response; resuming with GET Last-Event-ID: " + last_id);
          run_get(last_id, request_id, options_.resume_attempts - 1, retry_ms < 0 ? 0 : retry_ms);
        } else {
          note("the POST " + what + " stream ended without the response and without an event id to resume from");
        }
      }
      return;
    }
    std::string body = conn->read_all(dl, options_.max_message_bytes);
    if (head.status / 100 != 2) {
      note("HTTP " + std::to_string(head.status) + (body.empty() ? " with no body" : " body: " + clip(body)));
      // An error status is the server refusing the input (HTTP-14): one Rejected event. A JSON
      // body (a JSON-RPC error such as a parse error) is a message, except where a well-formed
      // request was refused at the HTTP level (no session, unknown session, bad header): there an
      // id-less error body is the server's explanation, not its JSON-RPC response.
      Event e{Event::Type::Rejected, body, {}};
      e.send = send_no;
      e.http_status = head.status;
      json doc = json::parse(body, nullptr, false);
      e.message = !doc.is_discarded();
      if (e.message && !request_id.empty() && request_id != "null" && request_id.front() != '{' &&
          request_id.front() != '[') {
        e.message = doc.is_object() && doc.contains("id") && !doc["id"].is_null();
        e.id_lost = !e.message && doc.is_object() && doc.contains("error");
      }
      events_.push(std::move(e));
      return;
    }
    if (head.status == 202 || body.empty()) {
      if (!body.empty()) note("202 Accepted carried a body: " + clip(body));
      if (!request_id.empty())
        note("the request " + what + " got " + std::to_string(head.status) + " without a body: no response will come");
      if (initialized_note && options_.open_get_stream) {
        bool start = false;
        {
          std::lock_guard<std::mutex> lock(mu_);
          start = !get_started_;
          get_started_ = true;
        }
        if (start) {
          auto get_conn = std::make_shared<HttpConnection>();
          ++get_streams_;
          launch(get_conn, [this] {
            run_get("", "", 0, 0);  // reconnections after a retry hint included
            stream_ended(get_streams_);
          });
        }
      }
      return;
    }
    // Error statuses were handled above. A 2xx answer to a request is one JSON object labelled
    // application/json, or an SSE stream (HTTP-15); a body that is no JSON is a frame for the
    // monitors, which name the rule from its place.
    std::string place = "the " + std::to_string(head.status) + " answer to POST " + what +
                        (ct.empty() ? " (no Content-Type)" : " (Content-Type " + clip(ct, 80) + ")");
    if (!json::accept(body)) {
      events_.push(carried_frame(body, place, {"HTTP-15", "BASE-01"}));
      return;
    }
    if (ct.rfind("application/json", 0) != 0)
      violations_.add("framing", {"HTTP-15"}, place + " is JSON labelled neither application/json nor text/event-stream");
    bool answered = false;
    on_message_text(body, request_id, initialize, answered, place);
  } catch (const TransportError& e) {
    if (!stopping_) note("POST " + what + ": " + e.what());
  }
}

bool StreamableHttpTransport::read_sse(HttpConnection& conn, const std::string& what, const std::string& request_id,
                                       bool initialize, std::string& last_id, long long& retry_ms) {
  SseParser parser(options_.max_message_bytes);
  std::vector<SseEvent> events;
  bool answered = false;
  Deadline dl = Deadline::after_ms(options_.stream_max_ms);
  std::string chunk;
  bool more = true;
  while (more) {
    chunk.clear();
    more = conn.read_body(chunk, dl);
    events.clear();
    parser.feed(chunk, events);
    for (auto& e : events) {
      if (e.oversize) {
        events_.push(Event{Event::Type::Oversize,
                           what + ": an SSE event exceeded " + std::to_string(options_.max_message_bytes) + " bytes",
                           {}});
        continue;
      }
      if (e.retry) retry_ms = *e.retry;
      if (e.id) {
        last_id = *e.id;
        bool fresh;
        {
          std::lock_guard<std::mutex> lock(mu_);
          fresh = e.id->empty() || event_ids_.insert(*e.id).second;
        }
        if (!fresh) note(what + ": SSE event id \"" + clip(*e.id, 80) + "\" was already used in this session (HTTP-40)");
      }
      if (!e.has_data || e.data.empty()) continue;  // priming event or keep-alive
      if (e.type() != "message") {
        note(what + ": ignored an SSE event of type \"" + clip(e.type(), 40) + "\"");
        continue;
      }
      on_message_text(e.data, request_id, initialize, answered, "an SSE event on the stream of " + what);
    }
  }
  note(what + ": the SSE stream ended" + (retry_ms >= 0 ? " (retry " + std::to_string(retry_ms) + " ms)" : ""));
  return answered;
}

void StreamableHttpTransport::on_message_text(const std::string& text, const std::string& request_id, bool initialize,
                                              bool& answered, const std::string& place) {
  if (text.size() > options_.max_message_bytes) {
    events_.push(Event{Event::Type::Oversize, "a message of " + std::to_string(text.size()) + " bytes was discarded", {}});
    return;
  }
  if (!request_id.empty()) {
    try {
      json msg = json::parse(text);
      if (answers(msg, request_id)) {
        answered = true;
        {
          std::lock_guard<std::mutex> lock(mu_);
          if (tools_list_ids_.erase(request_id) && msg.is_object() && msg.contains("result"))
            learn_param_headers(msg["result"], param_headers_);
        }
        if (initialize && msg.is_object() && msg.contains("result") && msg["result"].is_object()) {
          auto v = msg["result"].value("protocolVersion", std::string());
          // The header exists from 2025-06-18 on; before that a server may not know it.
          if (v >= "2025-06-18") {
            std::lock_guard<std::mutex> lock(mu_);
            if (protocol_header_.empty() || !options_.keep_session) protocol_header_ = v;
          }
        }
      }
    } catch (const json::exception&) {
    }
  }
  events_.push(carried_frame(text, place, {"BASE-01"}));
}

void StreamableHttpTransport::run_get(std::string last_event_id, std::string request_id, int attempts_left,
                                      long long delay_ms) {
  // The wait a server asked for with retry: is honoured before reconnecting (HTTP-20).
  for (long long waited = 0; waited < delay_ms && !stopping_; waited += 20) ::usleep(20000);
  if (stopping_) return;
  std::string what = last_event_id.empty() ? "GET stream" : "GET resume from " + clip(last_event_id, 60);
  HttpRequest r;
  r.method = "GET";
  r.target = url_.target;
  r.headers = {{"Accept", "text/event-stream"}};
  for (auto& h : common_headers()) r.headers.push_back(std::move(h));
  if (!last_event_id.empty()) r.headers.emplace_back("Last-Event-ID", last_event_id);
  auto conn = std::make_shared<HttpConnection>();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    // Registered so stop() can abort it; the thread itself is the caller's.
    streams_.emplace_back();
    streams_.back().conn = conn;  // never `done`: kept until stop() so it can always be aborted
  }
  try {
    conn->connect(url_.host, url_.port, Deadline::after_ms(options_.connect_timeout_ms));
    conn->write_all(format_request(r, url_.host_header()), Deadline::after_ms(options_.connect_timeout_ms));
    HttpHead head = conn->read_head(Deadline::after_ms(options_.stream_max_ms));
    std::string ct = lower(head.header("Content-Type"));
    note(what + " -> " + std::to_string(head.status) + (ct.empty() ? "" : " " + ct));
    if (head.status == 405) return;  // the server offers no GET stream: allowed
    if (head.status / 100 != 2 || ct.rfind("text/event-stream", 0) != 0) {
      std::string body = conn->read_all(Deadline::after_ms(2000), 65536);
      if (!body.empty()) note(what + " body: " + clip(body));
      return;
    }
    std::string last_id = last_event_id;
    long long retry_ms = -1;
    bool answered = read_sse(*conn, what, request_id, false, last_id, retry_ms);
    if (stopping_) return;
    if (!request_id.empty() && !answered && attempts_left > 0 && !last_id.empty()) {
      run_get(last_id, request_id, attempts_left - 1, retry_ms < 0 ? 0 : retry_ms);
    } else if (request_id.empty() && retry_ms >= 0 && attempts_left < 3) {
      // A standalone stream closed with a retry hint: poll again, a bounded number of times.
      run_get(last_id, "", attempts_left + 1, retry_ms);
    }
  } catch (const TransportError& e) {
    if (!stopping_) note(what + ": " + e.what());
  }
}

Event StreamableHttpTransport::receive(Deadline deadline) { return events_.pop(deadline); }

void StreamableHttpTransport::close_input() {
  note("close_input: over HTTP the session is ended with DELETE instead");
  std::string sid = session_id();
  if (sid.empty()) return;
  try {
    HttpConnection c;
    HttpRequest r;
    r.method = "DELETE";
    r.target = url_.target;
    r.headers = common_headers();
    c.connect(url_.host, url_.port, Deadline::after_ms(options_.connect_timeout_ms));
    c.write_all(format_request(r, url_.host_header()), Deadline::after_ms(2000));
    HttpHead head = c.read_head(Deadline::after_ms(2000));
    note("DELETE session -> " + std::to_string(head.status));
  } catch (const TransportError& e) {
    note(std::string("DELETE session: ") + e.what());
  }
}

void StreamableHttpTransport::signal(int sig) {
  if (served_) served_->signal(sig);
  else note("cannot signal a server reached by URL");
}

std::optional<ExitStatus> StreamableHttpTransport::exit_status() {
  return served_ ? served_->exit_status() : std::nullopt;
}

void StreamableHttpTransport::stop() {
  if (stopped_) return;
  stopped_ = true;
  // Ending the session politely matters for a shared server reached by --url (SESS-09).
  if (!session_id().empty() && !(served_ && served_->exit_status())) {
    try {
      HttpConnection c;
      HttpRequest r;
      r.method = "DELETE";
      r.target = url_.target;
      r.headers = common_headers();
      c.connect(url_.host, url_.port, Deadline::after_ms(500));
      c.write_all(format_request(r, url_.host_header()), Deadline::after_ms(500));
      (void)c.read_head(Deadline::after_ms(500));
    } catch (const TransportError&) {
    }
  }
  std::list<Stream> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    all.splice(all.end(), streams_);
  }
  for (auto& s : all)
    if (s.conn) s.conn->abort();
  for (auto& s : all)
    if (s.thread.joinable()) s.thread.join();
  {
    // Threads may have registered GET connections while we were joining.
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& s : streams_)
      if (s.conn) s.conn->abort();
    streams_.clear();
  }
  if (served_) served_->stop(300);
}

void StreamableHttpTransport::configure(const nlohmann::json& options) {
  if (options.is_object() && options.contains("open_get_stream") && options["open_get_stream"].is_boolean())
    options_.open_get_stream = options["open_get_stream"].get<bool>();
}

}  // namespace mcpspec::transport::http
