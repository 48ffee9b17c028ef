#include "harness/transport/http/streamable_http_server.hpp"

#include "harness/auth/protected_resource.hpp"
#include "harness/transport/http/httplib_support.hpp"
#include "harness/protocol/era.hpp"
#include "harness/transport/http/modern_header_checks.hpp"
#include "harness/transport/http/sse_parser.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>

namespace mcpspec::transport::http {

using nlohmann::json;

namespace {

// A POST or GET waits at most this long for something to send; a stream connection lives at most
// this long. Both are far beyond any scenario, which ends (and stops the server) long before.
constexpr auto kMaxHandlerWait = std::chrono::minutes(10);
// How often a quiet subscriptions/listen stream carries an SSE comment line (":"), the keep-alive
// the spec encourages servers to send and clients must ignore (SUB-14). Short, so that every
// listen a scenario holds for a second or more sees several.
constexpr auto kListenKeepAlive = std::chrono::milliseconds(400);

// The subscription a notification belongs to (its _meta subscriptionId, as JSON text), "" if none.
std::string subscription_of(const json& m) {
  if (!m.is_object() || m.contains("id") || !m.contains("params") || !m["params"].is_object()) return "";
  const json& p = m["params"];
  if (!p.contains("_meta") || !p["_meta"].is_object()) return "";
  auto id = p["_meta"].find(protocol::meta_key::kSubscriptionId);
  return id == p["_meta"].end() ? "" : id->dump();
}

bool is_request(const json& m) { return m.is_object() && m.contains("method") && m.contains("id"); }
bool is_response(const json& m) {
  return m.is_object() && !m.contains("method") && m.contains("id") && (m.contains("result") || m.contains("error"));
}

std::string what_of(const json& body) {
  if (body.is_object() && body.contains("method") && body["method"].is_string()) return body["method"];
  if (body.is_object()) return "response";
  if (body.is_array()) return fmt::format("batch of {}", body.size());
  return "body";
}

}  // namespace

StreamableHttpServer::StreamableHttpServer(ClientSideOptions options, EventQueue& events)
    : options_(std::move(options)), events_(events) {}

StreamableHttpServer::~StreamableHttpServer() { stop(); }

void StreamableHttpServer::note(const std::string& line) { events_.push(Event{Event::Type::Stderr, "http: " + line, {}}); }

void StreamableHttpServer::start() {
  if (options_.tls_cert.empty()) {
    server_ = std::make_unique<httplib::Server>();
  } else {
    auto tls = std::make_unique<httplib::SSLServer>(options_.tls_cert.c_str(), options_.tls_key.c_str());
    if (!tls->is_valid()) throw TransportError("cannot serve https with " + options_.tls_cert);
    server_ = std::move(tls);
  }
  server_->set_payload_max_length(options_.max_message_bytes);
  server_->Post("/mcp", [this](const httplib::Request& q, httplib::Response& r) { on_post(q, r); });
  server_->Get("/mcp", [this](const httplib::Request& q, httplib::Response& r) { on_get(q, r); });
  server_->Delete("/mcp", [this](const httplib::Request& q, httplib::Response& r) { on_delete(q, r); });
  if (options_.guard) {
    // Protected resource metadata (and the 404s a client's discovery meets) come from the gate.
    server_->Get("/(?!mcp$).*", [this](const httplib::Request& q, httplib::Response& r) {
      options_.guard->serve_metadata(q, r);
      note(fmt::format("auth: GET {} -> {}", q.path, r.status));
    });
  }
  server_->set_error_handler([this](const httplib::Request& q, httplib::Response& r) {
    // Oversize bodies (413) and unknown paths end here; the client is told and the log says why.
    if (r.status == 413) note(fmt::format("{} {}: body over --max-message-bytes ({}) -> 413", q.method, q.path,
                                          options_.max_message_bytes));
    else if (q.path != "/mcp" && !options_.guard) note(fmt::format("{} {} (not the endpoint) -> {}", q.method, q.path, r.status));
  });
  // Stream connections and request POSTs waiting for the scenario each hold one of 32 workers.
  port_ = listen_for_client(*server_, thread_, 32, [this](const httplib::Request& q, int status, const std::string& why) {
    note(fmt::format("{} {} refused ({}): {}", q.method, q.path, status, why));
    record(q, status, {{"refused", why}});
  });
}

std::string StreamableHttpServer::url() const {
  return fmt::format("{}://127.0.0.1:{}/mcp", options_.tls_cert.empty() ? "http" : "https", port_);
}

void StreamableHttpServer::record(const httplib::Request& req, int status, json extra) {
  std::lock_guard<std::mutex> lock(mu_);
  if (records_.size() >= 1000) return;
  json r = {{"method", req.method},
            {"path", req.path},
            {"headers", request_headers(req)},
            {"status", status}};
  for (auto& [k, v] : extra.items()) r[k] = v;
  if (!r.contains("ms")) r["ms"] = static_cast<long long>(ms_since(started_));
  records_.push_back(std::move(r));
}

StreamableHttpServer::Session* StreamableHttpServer::session_for(const httplib::Request& req, httplib::Response& res,
                                                                 const std::string& what) {
  std::string sid = req.get_header_value("Mcp-Session-Id");
  if (sid.empty()) {
    res.status = 400;
    res.set_content(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Mcp-Session-Id header required"}})",
                    "application/json");
    note(what + " without Mcp-Session-Id -> 400");
    return nullptr;
  }
  auto it = sessions_.find(sid);
  if (it == sessions_.end() || !it->second.alive) {
    res.status = 404;
    res.set_content(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}})",
                    "application/json");
    note(what + " with " + (it == sessions_.end() ? "an unknown" : "an ended") + " session id -> 404");
    return nullptr;
  }
  return &it->second;
}

void StreamableHttpServer::append(Session& s, int stream, std::string data) {
  s.streams[stream].history.push_back({fmt::format("{}-{}", stream, ++s.next_event), std::move(data)});
  cv_.notify_all();
}

json StreamableHttpServer::facts(bool starts_session, const std::string& sid_header) const {
  // What the client knew when it made the request: whether a session id had been issued to it and
  // which version was negotiated. An initialize POST starts afresh, so it owes neither.
  std::lock_guard<std::mutex> lock(mu_);
  auto cur = sessions_.find(current_);
  bool issued = !starts_session && cur != sessions_.end() && cur->second.answered;
  return {{"ms", static_cast<long long>(ms_since(started_))},
          {"session_issued", issued},
          {"session_match", issued ? json(cur->second.id == sid_header) : json(nullptr)},
          {"negotiated", issued && !cur->second.version.empty() ? json(cur->second.version) : json(nullptr)}};
}

bool StreamableHttpServer::refused_by_guard(const httplib::Request& req, httplib::Response& res) {
  if (!options_.guard || options_.guard->admit(req, res)) return false;
  note(fmt::format("auth: {} {} -> {} ({})", req.method, req.path, res.status, res.get_header_value("WWW-Authenticate")));
  record(req, res.status, {{"ms", static_cast<long long>(ms_since(started_))}, {"auth_refused", true}});
  return true;
}

void StreamableHttpServer::on_post(const httplib::Request& req, httplib::Response& res) {
  if (refused_by_guard(req, res)) return;
  json body = json::parse(req.body, nullptr, false);
  bool initialize = body.is_object() && body.value("method", json()) == "initialize";
  json extra = facts(initialize, req.get_header_value("Mcp-Session-Id"));
  extra["body"] = body.is_discarded() ? json(nullptr) : body;
  if (body.is_discarded()) {
    // The session still judges the text (its framing monitor names the rule); the client gets a
    // JSON-RPC parse error.
    events_.push(carried_frame(req.body, "a POST body", {"HTTP-12", "BASE-01"}));
    res.status = 400;
    res.set_content(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})", "application/json");
    note("POST body is not JSON -> 400");
    record(req, 400, extra);
    return;
  }
  std::string what = "POST " + what_of(body);
  std::vector<std::string> ids;
  if (is_request(body)) ids.push_back(body["id"].dump());
  if (body.is_array())
    for (const auto& m : body)
      if (is_request(m)) ids.push_back(m["id"].dump());

  // 2026-07-28: no session; the headers must agree with the body (modern_headers.hpp).
  const bool modern = options_.serve_modern && !initialize &&
                      modern_post_version(body, req.get_header_value("MCP-Protocol-Version")).has_value();
  if (modern) {
    extra["session_issued"] = false;
    extra["session_match"] = nullptr;
    extra["stateless"] = true;
    {
      // One session for every stateless POST: it issues no id and never expires. A client whose
      // first POST is refused has still reached the server.
      std::lock_guard<std::mutex> lock(mu_);
      // A stateless server that crashed has nothing to forget: the next POST starts afresh.
      if (!stateless_.empty() && !sessions_[stateless_].alive) {
        sessions_.erase(stateless_);
        stateless_.clear();
      }
      if (stateless_.empty()) {
        stateless_ = fmt::format("stateless-{}", created_);  // unique: streams of a crashed one find nothing
        Session fresh;
        fresh.id = stateless_;
        sessions_[stateless_] = std::move(fresh);
        ++created_;
      }
      current_ = stateless_;
    }
    if (!reject_modern_headers(req, res, body, what, extra)) return;
  }

  std::unique_lock<std::mutex> lock(mu_);
  Session* s = nullptr;
  if (modern) {
    s = &sessions_[stateless_];
  } else if (initialize) {
    if (!req.get_header_value("Mcp-Session-Id").empty()) note(what + " carries an Mcp-Session-Id (a new session is issued)");
    std::string sid = new_session_id();
    Session fresh;
    fresh.id = sid;
    sessions_[sid] = std::move(fresh);
    current_ = sid;
    ++created_;
    s = &sessions_[sid];
  } else {
    s = session_for(req, res, what);
    if (!s) {
      int status = res.status;
      lock.unlock();
      record(req, status, extra);
      return;
    }
  }
  if (ids.empty()) {
    lock.unlock();
    events_.push(Event{Event::Type::Frame, req.body, {}});
    res.status = 202;
    note(what + " -> 202");
    record(req, 202, extra);
    return;
  }
  int sn = s->next_stream++;
  Stream& st = s->streams[sn];
  // A 2026-07-28 subscription: its POST's SSE stream stays open for the notifications tagged with
  // its id until the client closes it (SUB-08) or the scenario answers the listen.
  const bool listen = modern && body.is_object() && body.value("method", json()) == "subscriptions/listen";
  st.listen = listen;
  for (const auto& id : ids) {
    st.pending.insert(id);
    s->request_stream[id] = sn;
  }
  bool json_ok = ids.size() == 1 && !body.is_array();
  if (options_.response_mode == "sse") json_ok = false;
  else if (options_.response_mode == "alternate") json_ok = json_ok && (request_posts_ % 2 == 0);
  ++request_posts_;
  std::string sid = s->id;
  lock.unlock();
  // The stream exists before the scenario sees the request, so its answer always finds it.
  events_.push(Event{Event::Type::Frame, req.body, {}});

  if (listen) {
    // No answer to wait for: the stream opens now, and its keep-alives flow before the
    // acknowledgment does.
    res.status = 200;
    res.set_header("X-Accel-Buffering", "no");
    serve_stream(res, sid, sn, 0, false);
    note(what + " -> 200 text/event-stream (a subscription: open until the client closes it)");
    record(req, 200, extra);
    std::lock_guard<std::mutex> relock(mu_);
    auto it = sessions_.find(sid);
    if (it != sessions_.end() && !records_.empty()) it->second.streams[sn].record = static_cast<int>(records_.size()) - 1;
    return;
  }
  if (options_.close_after_priming_retry_ms > 0) {
    // The stream opens (and ends) at once; the answer is only reachable by resuming it.
    if (initialize) res.set_header("Mcp-Session-Id", sid);
    res.status = 200;
    serve_stream(res, sid, sn, 0, true);
    note(what + " -> 200 text/event-stream" + (initialize ? " (Mcp-Session-Id issued)" : ""));
    record(req, 200, extra);
    return;
  }
  lock.lock();
  auto until = Clock::now() + kMaxHandlerWait;
  auto ready = [&] {
    auto it = sessions_.find(sid);
    if (stopping_ || it == sessions_.end()) return true;
    const Stream& x = it->second.streams[sn];
    return !x.history.empty() || x.aborted || x.complete;
  };
  while (!ready() && Clock::now() < until) cv_.wait_until(lock, std::min(until, Clock::now() + std::chrono::seconds(1)));
  Session& ss = sessions_[sid];
  Stream& x = ss.streams[sn];
  if (stopping_ || x.aborted || x.history.empty()) {
    // The server went away (crash, close, the scenario ended) before answering.
    res.status = stopping_ || x.aborted ? 503 : 500;
    x.complete = true;
    lock.unlock();
    note(fmt::format("{} -> {} (the server ended before answering)", what, res.status));
    record(req, res.status, extra);
    return;
  }
  if (initialize) res.set_header("Mcp-Session-Id", sid);
  bool sse = !(json_ok && !x.force_sse && x.complete && x.history.size() == 1);
  if (!sse) {
    res.status = 200;
    res.set_content(x.history[0].data, "application/json");
    x.delivered = 1;
    x.closed_at = Clock::now();
    lock.unlock();
    note(what + " -> 200 application/json" + (initialize ? " (Mcp-Session-Id issued)" : ""));
    record(req, 200, extra);
    return;
  }
  lock.unlock();
  res.status = 200;
  serve_stream(res, sid, sn, 0, false);
  note(what + " -> 200 text/event-stream" + (initialize ? " (Mcp-Session-Id issued)" : ""));
  record(req, 200, extra);
}

bool StreamableHttpServer::reject_modern_headers(const httplib::Request& req, httplib::Response& res, const json& body,
                                                const std::string& what, json& extra) {
  auto header = [&req](const char* name) { return req.get_header_value(name); };
  std::vector<HeaderProblem> found = check_modern_headers(body, header);
  if (body.is_object() && body.value("method", json()) == "tools/call" && body.contains("params") &&
      body["params"].is_object() && body["params"].value("name", json()).is_string()) {
    std::vector<ParamHeader> annotations;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = param_headers_.find(body["params"]["name"].get<std::string>());
      if (it != param_headers_.end()) annotations = it->second;
    }
    auto params = check_param_headers(body, annotations, [&req](const std::string& n) { return req.get_header_value(n.c_str()); });
    found.insert(found.end(), params.begin(), params.end());
  }
  std::string accept = req.get_header_value("Accept");
  std::vector<HeaderProblem> noted;  // rules broken that do not stop the POST
  if (accept.find("application/json") == std::string::npos || accept.find("text/event-stream") == std::string::npos)
    noted.push_back({{"HTTP-11"}, "the POST of " + what_of(body) + " has Accept \"" + accept +
                                      "\", not both application/json and text/event-stream"});
  if (body.is_array()) noted.push_back({{"HTTP-12", "HTTP-10"}, "a POST body is a JSON array: one message per POST"});
  for (const auto* list : {&found, &noted})
    for (const auto& p : *list) violations_.add("modern_requests", p.requirements, p.text);
  if (found.empty()) return true;
  extra["header_mismatch"] = found.front().text;
  json id = body.is_object() && body.contains("id") ? body["id"] : json(nullptr);
  res.status = 400;
  res.set_content(json{{"jsonrpc", "2.0"},
                       {"id", id},
                       {"error", {{"code", protocol::modern_error::kHeaderMismatch}, {"message", "Header mismatch: " + found.front().text}}}}
                      .dump(),
                  "application/json");
  note(what + " -> 400 -32020 (" + found.front().text + ")");
  record(req, 400, extra);
  return false;
}

void StreamableHttpServer::serve_stream(httplib::Response& res, const std::string& sid, int sn, std::size_t cursor,
                                       bool prime) {
  int gen = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Stream& st = sessions_[sid].streams[sn];
    gen = ++st.attach_gen;
    st.attached = true;
  }
  res.set_header("Cache-Control", "no-cache");
  auto pos = std::make_shared<std::size_t>(cursor);
  auto primed = std::make_shared<bool>(!prime);
  auto until = Clock::now() + kMaxHandlerWait;
  auto last_write = std::make_shared<Clock::time_point>(Clock::now());
  // Set when the harness ends the connection (the stream is complete, cut or out of time); a
  // connection that ends without it was closed by the client.
  auto ended_here = std::make_shared<bool>(false);
  res.set_chunked_content_provider(
      "text/event-stream",
      [this, sid, sn, gen, pos, primed, until, last_write, ended_here](std::size_t, httplib::DataSink& sink) {
        std::unique_lock<std::mutex> lock(mu_);
        auto it = sessions_.find(sid);
        if (it == sessions_.end()) return false;
        Stream& st = it->second.streams[sn];
        auto has_work = [&] {
          return stopping_ || st.aborted || st.attach_gen != gen || *pos < st.history.size() || st.complete ||
                 !*primed;
        };
        cv_.wait_until(lock, std::min(until, Clock::now() + std::chrono::milliseconds(200)), has_work);
        if (stopping_ || st.aborted || Clock::now() >= until) {  // cut, no clean end
          *ended_here = true;
          return false;
        }
        if (st.attach_gen != gen) {  // a newer connection (a resumption) took the stream over
          *ended_here = true;
          sink.done();
          return true;
        }
        if (!*primed) {
          // The priming event carries an id to resume from; then the stream ends early on purpose.
          *primed = true;
          std::string id = fmt::format("{}-{}", sn, ++it->second.next_event);
          std::string ev = fmt::format("id: {}\nretry: {}\ndata: \n\n", id, options_.close_after_priming_retry_ms);
          st.history.push_back({id, ""});  // a resumption from it starts after it
          *pos = st.history.size();
          lock.unlock();
          note(fmt::format("POST stream {}: priming event {} with retry {} ms, then closed", sn, id,
                           options_.close_after_priming_retry_ms));
          if (!sink.write(ev.data(), ev.size())) return false;
          sink.done();
          return true;
        }
        std::string out;
        while (*pos < st.history.size()) {
          const Item& item = st.history[(*pos)++];
          if (!item.data.empty()) out += sse_message_event(item.data, item.event_id);
        }
        if (st.is_get) st.delivered = std::max(st.delivered, *pos);
        bool end = st.complete && *pos >= st.history.size();
        if (out.empty() && st.listen && !end && Clock::now() - *last_write >= kListenKeepAlive) out = ":\r\n";
        lock.unlock();
        if (!out.empty()) {
          if (!sink.write(out.data(), out.size())) return false;
          *last_write = Clock::now();
        }
        if (end) {
          *ended_here = true;
          sink.done();
        }
        return true;
      },
      [this, sid, sn, gen, ended_here](bool) {
        std::string line;
        {
          std::lock_guard<std::mutex> lock(mu_);
          auto it = sessions_.find(sid);
          if (it == sessions_.end()) return;
          Stream& st = it->second.streams[sn];
          if (st.attach_gen == gen) {
            st.attached = false;
            st.closed_at = Clock::now();
            if (st.listen) line = listen_ended(st, sn, *ended_here ? "server" : "client");
          }
        }
        if (!line.empty()) note(line);
      });
}

std::string StreamableHttpServer::listen_ended(Stream& st, int sn, const std::string& by) {
  // A subscription the client closed is over: nothing more goes on it (HTTP has no other way to
  // end one, SUB-08).
  if (by == "client") st.complete = true;
  if (st.record >= 0 && st.record < static_cast<int>(records_.size())) {
    records_[st.record]["stream_end"] = by;
    records_[st.record]["stream_end_ms"] = static_cast<long long>(ms_since(started_));
  }
  return fmt::format("listen stream {} closed by the {}", sn, by);
}

void StreamableHttpServer::on_get(const httplib::Request& req, httplib::Response& res) {
  if (refused_by_guard(req, res)) return;
  std::string last = req.get_header_value("Last-Event-ID");
  std::string what = last.empty() ? "GET stream" : "GET resume after event " + last;
  json extra = facts(false, req.get_header_value("Mcp-Session-Id"));
  std::unique_lock<std::mutex> lock(mu_);
  Session* s = session_for(req, res, what);
  if (!s) {
    int status = res.status;
    lock.unlock();
    record(req, status, extra);
    return;
  }
  std::string sid = s->id;
  int sn = -1;
  std::size_t cursor = 0;
  if (!last.empty()) {
    for (auto& [n, st] : s->streams) {
      for (std::size_t i = 0; i < st.history.size(); ++i)
        if (st.history[i].event_id == last) {
          sn = n;
          cursor = i + 1;
          if (st.closed_at)
            extra["resumes_after_ms"] =
                std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - *st.closed_at).count();
        }
    }
    if (sn < 0) {
      res.status = 404;
      lock.unlock();
      note(what + ": no such event in this session -> 404");
      record(req, 404, extra);
      return;
    }
    extra["resumes_stream"] = sn;
  } else {
    if (s->get_stream < 0) {
      s->get_stream = s->next_stream++;
      s->streams[s->get_stream].is_get = true;
    }
    sn = s->get_stream;
    cursor = s->streams[sn].delivered;
  }
  lock.unlock();
  res.status = 200;
  serve_stream(res, sid, sn, cursor, false);
  note(what + " -> 200 text/event-stream");
  record(req, 200, extra);
}

void StreamableHttpServer::on_delete(const httplib::Request& req, httplib::Response& res) {
  if (refused_by_guard(req, res)) return;
  json extra = facts(false, req.get_header_value("Mcp-Session-Id"));
  std::unique_lock<std::mutex> lock(mu_);
  Session* s = session_for(req, res, "DELETE");
  if (!s) {
    int status = res.status;
    lock.unlock();
    record(req, status, extra);
    return;
  }
  s->alive = false;
  for (auto& [n, st] : s->streams) st.complete = true;
  cv_.notify_all();
  lock.unlock();
  res.status = 200;
  note("DELETE -> 200 (session ended)");
  record(req, 200, extra);
  events_.push(Event{Event::Type::Closed, "the client ended its session with HTTP DELETE", {}});
}

void StreamableHttpServer::deliver(const std::string& text, Deadline) {
  json m = json::parse(text, nullptr, false);
  std::string note_text;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(current_);
    if (it == sessions_.end() || !it->second.alive)
      throw TransportError(created_ == 0 ? "the client has not opened a session (no initialize POST yet)"
                                         : "the client's session has ended");
    Session& s = it->second;
    if (!m.is_discarded() && is_response(m) && m.contains("result"))
      learn_param_headers(m["result"], param_headers_);
    if (!m.is_discarded() && is_response(m)) {
      auto rs = s.request_stream.find(m["id"].dump());
      if (rs != s.request_stream.end()) {
        int sn = rs->second;
        Stream& st = s.streams[sn];
        s.request_stream.erase(rs);
        st.pending.erase(m["id"].dump());
        if (st.pending.empty()) st.complete = true;
        if (!s.answered) {
          // The answer to initialize: the session id goes out with it.
          s.answered = true;
          if (m.contains("result") && m["result"].is_object() && m["result"].value("protocolVersion", json()).is_string())
            s.version = m["result"]["protocolVersion"];
        }
        append(s, sn, text);
        return;
      }
    }
    // A notification tagged with a subscription goes on that listen's stream while it is open.
    // Other requests and notifications go on the newest POST stream still waiting for its response
    // (they most likely belong to that request), else on the GET stream, kept until the client
    // opens it.
    int target = -1;
    if (auto sub = s.request_stream.find(subscription_of(m)); !m.is_discarded() && sub != s.request_stream.end() &&
                                                              s.streams[sub->second].listen && !s.streams[sub->second].complete)
      target = sub->second;
    for (auto r = s.streams.rbegin(); target < 0 && r != s.streams.rend(); ++r)
      if (!r->second.is_get && !r->second.complete && !r->second.pending.empty()) {
        target = r->first;
        break;
      }
    if (target >= 0) {
      s.streams[target].force_sse = true;
    } else {
      if (s.get_stream < 0) {
        s.get_stream = s.next_stream++;
        s.streams[s.get_stream].is_get = true;
      }
      target = s.get_stream;
      if (!s.streams[target].attached) note_text = "no GET stream open: the message waits until the client opens one";
    }
    append(s, target, text);
  }
  if (!note_text.empty()) note(note_text);
}

void StreamableHttpServer::crash() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(current_);
    if (it == sessions_.end() || !it->second.alive) return;
    it->second.alive = false;
    for (auto& [n, st] : it->second.streams) st.aborted = true;
    cv_.notify_all();
  }
  note("the server lost the session (streams cut; the session id now gets 404)");
  events_.push(Event{Event::Type::Closed, "the harness dropped the session abruptly", {}});
}

void StreamableHttpServer::close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(current_);
    if (it == sessions_.end() || !it->second.alive) return;
    it->second.alive = false;
    for (auto& [n, st] : it->second.streams) st.complete = true;
    cv_.notify_all();
  }
  note("the server ended the session (streams closed; the session id now gets 404)");
  events_.push(Event{Event::Type::Closed, "the harness ended the session", {}});
}

bool StreamableHttpServer::session_open() const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sessions_.find(current_);
  return it != sessions_.end() && it->second.alive;
}

int StreamableHttpServer::sessions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return created_;
}

json StreamableHttpServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  json a = json::array();
  for (const auto& r : records_) a.push_back(r);
  // value(), not [] on a const object: a record without "ms" (a refused request's, before it was
  // stamped) read freed memory there (ThreadSanitizer, tests/sanitize/tsan.sh).
  std::stable_sort(a.begin(), a.end(), [](const json& x, const json& y) { return x.value("ms", 0.0) < y.value("ms", 0.0); });
  return a;
}

void StreamableHttpServer::stop() {
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
