// mcpspec-httpserver: an HTTP front for mcpspec-testserver, to test mcpspec's HTTP transports.
// Streamable HTTP on /mcp (or, with --legacy, the 2024-11-05 HTTP+SSE transport on /sse and
// /messages); one stdio test server per HTTP session does the MCP work. 2026-07-28 POSTs are
// stateless: their headers are checked against the body, and one shared test server answers them
// (--modern-only: nothing else is served). --fault NAME breaks one
// transport rule (see faults.cpp). Binds 127.0.0.1 only. Independent of harness/ on purpose.
#include "backend_process.hpp"
#include "faults.hpp"
#include "json_text.hpp"
#include "modern_headers_check.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <signal.h>

#include <algorithm>
#include <functional>
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <set>

using nlohmann::json;
using namespace std::chrono_literals;

namespace {

struct Options {
  int port = 0;
  std::string backend;
  std::string response = "sse";  // json | sse | alternate
  bool get = true;
  bool legacy = false;
  bool close_early = false;  // POST streams end after the priming event: clients must resume (HTTP-20)
  bool one_get = false;      // one standalone GET stream per session, 409 for another (as the TypeScript SDK)
  bool modern_only = false;  // 2026-07-28 only: no sessions, GET and DELETE get 405 (HTTP-BC-03)
  std::string fault;
};

struct StoredEvent {
  std::string id;
  int stream = 0;
  std::string data;
};

struct Session {
  std::string id;
  std::unique_ptr<httpfront::BackendProcess> backend;
  std::string version;
  std::mutex mu;
  std::vector<StoredEvent> events;  // every SSE event sent, for Last-Event-ID resumption
  int next_stream = 0;
  long long next_event = 0;
  std::map<int, long long> per_stream;
  std::atomic<int> posts{0};
  std::atomic<int> open_posts{0};  // POST streams in progress: they carry the request's notifications
  std::atomic<int> open_gets{0};   // standalone GET streams open (--one-get)
  std::set<int> done_streams;      // POST streams that have ended: a resumption of one ends too
  std::atomic<long long> last_used{0};
};

// Sessions kept at most; beyond, the least recently used one ends (its id then gets 404). A
// client that sends initialize again and again (a fuzzer) must not fill the machine with
// backend processes.
constexpr std::size_t kMaxSessions = 32;
std::atomic<long long> use_clock{0};

Options opt;
std::mutex sessions_mu;
std::map<std::string, std::shared_ptr<Session>> sessions;
std::shared_ptr<Session> latest;

bool fault(const char* name) { return opt.fault == name; }

std::string random_id() {
  static std::mutex mu;
  static std::mt19937_64 rng{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mu);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(rng()));
  return buf;
}

json rpc_error(int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", code}, {"message", message}}}};
}

void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

// DNS-rebinding protection: a browser page from elsewhere must not reach a local server.
bool origin_ok(const httplib::Request& req) {
  // After DNS rebinding the browser names the attacker's host: only loopback names are served.
  std::string host = req.get_header_value("Host");
  if (!(host.rfind("127.0.0.1", 0) == 0 || host.rfind("localhost", 0) == 0 || host.rfind("[::1]", 0) == 0))
    return false;
  if (!req.has_header("Origin") || fault("ignore-origin")) return true;
  std::string o = req.get_header_value("Origin");
  return o.rfind("http://127.0.0.1", 0) == 0 || o.rfind("http://localhost", 0) == 0;
}

// The SSE text of one event, recorded in the session for resumption.
std::string sse_event(Session& s, int stream, const std::string& data) {
  std::lock_guard<std::mutex> lock(s.mu);
  std::string id = fault("duplicate-event-ids") ? std::to_string(++s.per_stream[stream])
                                                : std::to_string(stream) + "-" + std::to_string(++s.next_event);
  s.events.push_back({id, stream, data});
  return "id: " + id + "\nevent: message\ndata: " + data + "\n\n";
}

const std::set<std::string> kVersions = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};

// Finds the request's session; answers 400/404 itself when there is none.
std::shared_ptr<Session> session_for(const httplib::Request& req, httplib::Response& res) {
  std::lock_guard<std::mutex> lock(sessions_mu);
  if (!req.has_header("Mcp-Session-Id")) {
    if (fault("session-optional") && latest) return latest;
    send_json(res, 400, rpc_error(-32000, "Bad Request: Mcp-Session-Id header is required"));
    return nullptr;
  }
  auto it = sessions.find(req.get_header_value("Mcp-Session-Id"));
  if (it == sessions.end()) {
    if (fault("unknown-session-accepted") && latest) return latest;
    send_json(res, 404, rpc_error(-32001, "Session not found"));
    return nullptr;
  }
  it->second->last_used = ++use_clock;
  return it->second;
}

bool wants_sse(Session& s) {
  if (opt.response == "json") return false;
  if (opt.response == "sse") return true;
  return (s.posts++ % 2) == 1;  // alternate: clients must handle both
}

// Answers POSTed requests: JSON body or an SSE stream carrying what the backend says meanwhile.
// `mine` picks the backend's notifications this POST may carry (all of them unless given).
// `outward` turns a backend message into what the client sees (the modern front's own request
// ids back into the client's).
using Outward = std::function<json(json)>;
void answer(httplib::Response& res, std::shared_ptr<Session> s, std::vector<std::string> ids, bool batch,
            httpfront::BackendProcess::Filter mine = {}, bool must_stream = false, Outward outward = {}) {
  if (!outward) outward = [](json m) { return m; };
  if (!must_stream && !wants_sse(*s)) {
    json out = json::array();
    bool cancelled = false;
    for (const auto& k : ids) {
      auto w = s->backend->await_response(k, 30s);
      if (w.response) out.push_back(outward(*w.response));
      cancelled = cancelled || w.cancelled;
    }
    // Notifications the backend wrote before the response travel on the GET stream: give that
    // stream a moment to send them, so they do not arrive after the response on another connection.
    for (int i = 0; i < 20 && s->backend->has_unsolicited(); ++i) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(5ms);
    if (out.empty() && cancelled) {
      res.status = 204;  // cancelled before it was answered: no response will come
      return;
    }
    if (out.empty()) {
      send_json(res, 500, rpc_error(-32603, "the backend gave no response"));
      return;
    }
    res.status = 200;
    res.set_content((batch ? out : out[0]).dump(), fault("wrong-content-type") ? "text/plain" : "application/json");
    return;
  }
  int stream;
  {
    std::lock_guard<std::mutex> lock(s->mu);
    stream = s->next_stream++;
  }
  res.status = 200;
  res.set_header("Cache-Control", "no-cache");
  auto pending = std::make_shared<std::vector<std::string>>(std::move(ids));
  if (opt.close_early) {
    // Priming event with a retry hint, then the connection closes without ending the stream: what
    // the request produces is stored under this stream and only reaches a client that resumes.
    std::string id;
    {
      std::lock_guard<std::mutex> lock(s->mu);
      id = std::to_string(stream) + "-" + std::to_string(++s->next_event);
      s->events.push_back({id, stream, ""});
    }
    std::thread([s, stream, pending, mine, outward] {
      auto until = std::chrono::steady_clock::now() + 30s;
      while (!pending->empty() && std::chrono::steady_clock::now() < until && s->backend->alive()) {
        auto w = s->backend->await_response(pending->front(), 20ms);
        if (w.response) {
          while (auto m = s->backend->next_unsolicited(0ms, mine)) sse_event(*s, stream, outward(*m).dump());
          sse_event(*s, stream, outward(*w.response).dump());
        }
        if (w.response || w.cancelled) pending->erase(pending->begin());
        while (auto m = s->backend->next_unsolicited(0ms, mine)) sse_event(*s, stream, outward(*m).dump());
      }
    }).detach();
    res.set_content("id: " + id + "\nretry: 300\ndata: \n\n", "text/event-stream");
    return;
  }
  // Priming events belong to 2025-11-25 resumption; 2026-07-28 has no resumption (HTTP-45).
  auto primed = std::make_shared<bool>(s->version != "2025-11-25");
  s->open_posts++;
  res.set_chunked_content_provider(fault("wrong-content-type") ? "text/plain" : "text/event-stream", [s, stream, pending, primed, mine, outward](size_t, httplib::DataSink& sink) {
    if (!*primed) {
      // Priming event (2025-11-25): an id and no data, so the client can resume from the start.
      std::string id;
      {
        std::lock_guard<std::mutex> lock(s->mu);
        id = std::to_string(stream) + "-" + std::to_string(++s->next_event);
        s->events.push_back({id, stream, ""});
      }
      std::string text = "id: " + id + "\ndata: \n\n";
      sink.write(text.data(), text.size());
      *primed = true;
    }
    auto until = std::chrono::steady_clock::now() + 60s;
    while (!pending->empty() && std::chrono::steady_clock::now() < until && sink.is_writable()) {
      while (auto m = s->backend->next_unsolicited(0ms, mine)) {
        std::string ev = sse_event(*s, stream, outward(*m).dump());
        if (!sink.write(ev.data(), ev.size())) return false;
      }
      auto w = s->backend->await_response(pending->front(), 20ms);
      if (w.cancelled && !w.response) {
        pending->erase(pending->begin());  // the stream ends without it
        continue;
      }
      if (auto r = w.response) {
        pending->erase(pending->begin());
        // What the backend wrote before the response (the last progress) goes out before it.
        while (auto m = s->backend->next_unsolicited(0ms, mine)) {
          std::string ev = sse_event(*s, stream, outward(*m).dump());
          if (!sink.write(ev.data(), ev.size())) return false;
        }
        std::string ev = sse_event(*s, stream, outward(*r).dump());
        if (!sink.write(ev.data(), ev.size())) return false;
      }
      if (!s->backend->alive()) break;
    }
    sink.done();
    return true;
  }, [s, stream](bool) {
    s->open_posts--;
    std::lock_guard<std::mutex> lock(s->mu);
    s->done_streams.insert(stream);
  });
}

// 2026-07-28: every modern POST stands alone. They share one backend (the test server serves each
// modern request on its own, and a subscriptions/listen stream must see the changes other
// requests make) and one Session record with no id, which no response names.
std::mutex modern_mu;
std::shared_ptr<Session> modern_session;
httpfront::ToolHeaders modern_tools;  // x-mcp-header arguments per tool, asked of the backend once
bool modern_tools_known = false;
std::atomic<int> front_request_seq{0};
std::map<std::string, json> modern_ids;  // a client's request id (serialized) -> the front's, for cancellation

std::shared_ptr<Session> modern() {
  std::lock_guard<std::mutex> lock(modern_mu);
  if (!modern_session) {
    modern_session = std::make_shared<Session>();
    modern_session->version = "2026-07-28";
    modern_session->backend =
        std::make_unique<httpfront::BackendProcess>(opt.backend + (opt.modern_only ? " --modern-only" : ""), false);
  }
  return modern_session;
}

// The x-mcp-header arguments of a tool, learnt from the backend's own tools/list (every page);
// a server validating Mcp-Param-* must know them whether or not the client listed the tools.
std::vector<httpfront::ParamHeader> tool_headers(Session& s, const std::string& tool, const std::string& version) {
  std::lock_guard<std::mutex> lock(modern_mu);
  if (!modern_tools_known) {
    json cursor;
    for (int page = 0; page < 20; ++page) {
      std::string id = "mcpspec-httpfront-tools-" + std::to_string(++front_request_seq);
      json params = {{"_meta", {{"io.modelcontextprotocol/protocolVersion", version},
                                {"io.modelcontextprotocol/clientCapabilities", json::object()}}}};
      if (!cursor.is_null()) params["cursor"] = cursor;
      s.backend->write_line(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/list"}, {"params", params}}.dump());
      auto r = s.backend->wait_response(json(id).dump(), 5s);
      if (!r || !r->contains("result")) break;
      httpfront::learn_tool_headers((*r)["result"], modern_tools);
      cursor = (*r)["result"].value("nextCursor", json());
      if (!cursor.is_string()) break;
    }
    modern_tools_known = true;
  }
  auto it = modern_tools.find(tool);
  return it == modern_tools.end() ? std::vector<httpfront::ParamHeader>{} : it->second;
}

// The HTTP status of a modern error answered at once: 404 for an unknown method (HTTP-PV-05), 400
// for an unsupported version (HTTP-PV-04) or a header mismatch; 200 for anything else.
int modern_error_status(const json& response) {
  if (!response.contains("error") || !response["error"].is_object()) return 200;
  const json code = response["error"].value("code", json());
  if (code == -32601 && !fault("modern-unknown-method-200")) return 404;
  if (code == -32022 && !fault("modern-unsupported-version-200")) return 400;
  if (code == -32020) return 400;
  return 200;
}

void handle_modern_post(const httplib::Request& req, httplib::Response& res, const json& body) {
  if (body.is_array()) {
    send_json(res, 400, rpc_error(-32600, "Invalid Request: a POST body is one message, never a batch"));
    return;
  }
  auto s = modern();
  const json params = body.contains("params") && body["params"].is_object() ? body["params"] : json::object();
  const std::string method = body.value("method", std::string());
  const std::string version = req.get_header_value("MCP-Protocol-Version");
  std::vector<httpfront::ParamHeader> tool;
  if (method == "tools/call" && params.contains("name") && params["name"].is_string())
    tool = tool_headers(*s, params["name"].get<std::string>(), version.empty() ? "2026-07-28" : version);
  httpfront::HeaderChecks checks;
  checks.version = !fault("modern-version-unchecked");
  checks.method = !fault("modern-method-unchecked");
  checks.name = !fault("modern-name-unchecked");
  checks.params = !fault("modern-param-unchecked");
  checks.decode = !fault("modern-sentinel-not-decoded");
  auto lookup = [&req](const std::string& name) -> std::optional<std::string> {
    if (fault("modern-header-names-case-sensitive")) {
      for (const auto& [k, v] : req.headers)
        if (k == name) return v;
      return std::nullopt;
    }
    if (!req.has_header(name)) return std::nullopt;
    return req.get_header_value(name);
  };
  if (auto why = httpfront::header_mismatch(body, lookup, tool, checks)) {
    json err = rpc_error(fault("modern-mismatch-code") ? -32600 : -32020, "Header mismatch: " + *why);
    if (body.contains("id") && !fault("modern-refusal-id-null")) err["id"] = body["id"];
    send_json(res, 400, err);
    return;
  }
  if (fault("modern-session-id")) res.set_header("Mcp-Session-Id", random_id());
  // Clients share the backend but not their ids: every modern request reaches it under an id of
  // the front's own, and the client's id goes back on its answer and on its listen stream's tags.
  // Progress tokens likewise (two clients may pick the same token).
  json sent = body;
  json client_id, client_token;
  if (sent.contains("id") && (sent["id"].is_string() || sent["id"].is_number_integer()) && !sent.contains("result") &&
      !sent.contains("error")) {
    client_id = sent["id"];
    sent["id"] = "mcpspec-httpfront-" + std::to_string(++front_request_seq);
    if (params.contains("_meta") && params["_meta"].is_object() && params["_meta"].contains("progressToken")) {
      client_token = params["_meta"]["progressToken"];
      sent["params"]["_meta"]["progressToken"] = sent["id"].get<std::string>() + "-progress";
    }
  }
  if (method == "notifications/cancelled" && params.contains("requestId")) {
    std::lock_guard<std::mutex> lock(modern_mu);
    auto it = modern_ids.find(params["requestId"].dump());
    if (it != modern_ids.end()) sent["params"]["requestId"] = it->second;
  }
  if (!s->backend->write_line(sent.dump())) {
    send_json(res, 500, rpc_error(-32603, "the backend is gone"));
    return;
  }
  if (!body.contains("id")) {
    if (method == "notifications/cancelled" && sent["params"].contains("requestId"))
      s->backend->cancel(sent["params"]["requestId"].dump());
    if (fault("notification-200")) send_json(res, 200, json::object());
    else res.status = 202;
    return;
  }
  if (!body.contains("id") || body.contains("result") || body.contains("error")) {
    res.status = 202;  // a response from the client: there is nothing to answer
    return;
  }
  const json id = sent["id"];
  const std::string key = id.is_string() || id.is_number_integer() ? id.dump() : "null";
  {
    std::lock_guard<std::mutex> lock(modern_mu);
    if (modern_ids.size() >= 4096) modern_ids.clear();
    modern_ids[client_id.dump()] = id;
  }
  const json token = client_token.is_null() ? json() : sent["params"]["_meta"]["progressToken"];
  Outward outward = [id, client_id, token, client_token](json m) {
    if (client_id.is_null()) return m;  // an id the front did not replace
    if (m.is_object() && m.contains("id") && m["id"] == id) m["id"] = client_id;
    if (!token.is_null() && m.is_object() && m.contains("params") && m["params"].is_object() &&
        m["params"].value("progressToken", json()) == token)
      m["params"]["progressToken"] = client_token;
    if (m.is_object() && m.contains("params") && m["params"].is_object() && m["params"].contains("_meta") &&
        m["params"]["_meta"].is_object() && m["params"]["_meta"].value("io.modelcontextprotocol/subscriptionId", json()) == id)
      m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] = client_id;
    return m;
  };
  // One backend serves every modern POST: a stream takes the notifications tagged for its request
  // (a listen stream: subscriptionId = its id; a call: its progressToken) and a call's stream the
  // untagged ones too. Such a request is always answered as a stream: JSON has no room for them.
  const bool listen = method == "subscriptions/listen";
  auto mine = [id, token, listen](const json& m) {
    const json p = m.is_object() && m.contains("params") && m["params"].is_object() ? m["params"] : json::object();
    const json tags = p.contains("_meta") && p["_meta"].is_object() ? p["_meta"] : json::object();
    if (tags.contains("io.modelcontextprotocol/subscriptionId")) return tags["io.modelcontextprotocol/subscriptionId"] == id;
    if (p.contains("progressToken")) return !token.is_null() && p["progressToken"] == token;
    return !listen;
  };
  // An error answered at once decides the status; anything else (a result, or notifications
  // first) is answered as every POST is, as JSON or as an SSE stream.
  if (auto r = s->backend->peek_response(key, 30s, mine); r && modern_error_status(*r) != 200) {
    auto w = s->backend->await_response(key, 0ms);
    json refusal = outward(w.response ? *w.response : *r);
    if (fault("modern-refusal-id-null")) refusal["id"] = nullptr;
    send_json(res, modern_error_status(*r), refusal);
    return;
  }
  answer(res, s, {key}, false, mine, listen || !token.is_null(), outward);
}

void handle_post(const httplib::Request& req, httplib::Response& res) {
  if (!origin_ok(req)) {
    send_json(res, 403, rpc_error(-32000, "Forbidden: invalid Origin"));
    return;
  }
  auto parsed = testserver::parse_message_text(req.body);
  if (auto* failure = std::get_if<testserver::ParseFailure>(&parsed)) {
    send_json(res, 400, rpc_error(-32700, "Parse error: " + failure->message));
    return;
  }
  json body = std::move(std::get<json>(parsed));
  bool init = body.is_object() && body.value("method", "") == "initialize";
  // A modern request ignores any Mcp-Session-Id (HTTP-BC-04); a modern-only front serves every
  // POST this way, initialize included (refused for its missing headers). A POST with neither a
  // session nor a legacy version header cannot belong to a legacy session: it is served as modern
  // too, so a 2026-07-28 request whose body names no version (a deliberately broken one) is judged
  // by the header rules and its body, not refused for the missing session.
  const std::string version_header = req.get_header_value("MCP-Protocol-Version");
  const json& first = body.is_array() && !body.empty() ? body[0] : body;
  const bool sessionless = !req.has_header("Mcp-Session-Id") && !kVersions.count(version_header);
  if (opt.modern_only || (!init && (httpfront::is_modern_message(first, version_header) || sessionless))) {
    handle_modern_post(req, res, body);
    return;
  }
  std::shared_ptr<Session> s;
  if (init) {
    s = std::make_shared<Session>();
    s->id = fault("session-id-not-visible-ascii") ? "sess " + random_id() : random_id();
    s->backend = std::make_unique<httpfront::BackendProcess>(opt.backend, false);
    std::lock_guard<std::mutex> lock(sessions_mu);
    if (sessions.size() >= kMaxSessions) {
      auto oldest = std::min_element(sessions.begin(), sessions.end(), [](const auto& a, const auto& b) {
        return a.second->last_used < b.second->last_used;
      });
      sessions.erase(oldest);
    }
    s->last_used = ++use_clock;
    sessions[s->id] = s;
    latest = s;
  } else {
    s = session_for(req, res);
    if (!s) return;
  }
  if (req.has_header("MCP-Protocol-Version") && !fault("accept-bad-protocol-header") &&
      !kVersions.count(req.get_header_value("MCP-Protocol-Version"))) {
    send_json(res, 400, rpc_error(-32000, "Bad Request: unsupported MCP-Protocol-Version"));
    return;
  }
  if (body.is_array() && s->version >= "2025-06-18" && !fault("batch-accepted")) {
    send_json(res, 400, rpc_error(-32600, "Invalid Request: batches are not accepted in this protocol version"));
    return;
  }
  std::vector<std::string> ids;
  for (const auto& m : body.is_array() ? body : json::array({body})) {
    // Anything with an id that is not a response gets an answer (a broken request gets an error);
    // one whose id is unusable is answered with id null.
    if (!m.is_object() || !m.contains("id") || m.contains("result") || m.contains("error")) continue;
    const json& id = m["id"];
    ids.push_back(id.is_string() || id.is_number_integer() ? id.dump() : "null");
  }
  if (!s->backend->write_line(body.dump())) {
    send_json(res, 500, rpc_error(-32603, "the backend is gone"));
    return;
  }
  for (const auto& m : body.is_array() ? body : json::array({body})) {
    // A cancelled request may never be answered: its POST stops waiting (HTTP streams end).
    const json* p = m.contains("params") ? &m["params"] : nullptr;
    if (m.value("method", json()) == "notifications/cancelled" && p && p->contains("requestId") &&
        ((*p)["requestId"].is_string() || (*p)["requestId"].is_number_integer()))
      s->backend->cancel((*p)["requestId"].dump());
  }
  if (init) res.set_header("Mcp-Session-Id", s->id);
  if (ids.empty()) {
    if (fault("notification-200")) send_json(res, 200, json::object());
    else res.status = 202;
    return;
  }
  if (init) {
    // The negotiated version decides the batch and priming rules for this session.
    auto r = s->backend->wait_response(ids[0], 30s);
    if (!r) {
      send_json(res, 500, rpc_error(-32603, "the backend did not answer initialize"));
      return;
    }
    if (r->contains("result") && (*r)["result"].is_object())
      s->version = (*r)["result"].value("protocolVersion", "");
    send_json(res, 200, *r);
    return;
  }
  answer(res, s, ids, body.is_array());
}

// A modern-only server offers POST alone: GET and DELETE get 405 (HTTP-BC-03).
bool refused_modern_only(httplib::Response& res) {
  if (!opt.modern_only) return false;
  if (fault("modern-get-served")) {
    send_json(res, 400, rpc_error(-32000, "Bad Request: Mcp-Session-Id header is required"));
    return true;
  }
  res.status = 405;
  res.set_header("Allow", "POST");
  return true;
}

void handle_get(const httplib::Request& req, httplib::Response& res) {
  if (!origin_ok(req)) {
    send_json(res, 403, rpc_error(-32000, "Forbidden: invalid Origin"));
    return;
  }
  if (refused_modern_only(res)) return;
  auto s = session_for(req, res);
  if (!s) return;
  if (fault("get-wrong-status")) {
    send_json(res, 200, json::object());
    return;
  }
  if (!opt.get) {
    res.status = 405;
    res.set_header("Allow", "POST, DELETE");
    return;
  }
  if (req.get_header_value("Accept").find("text/event-stream") == std::string::npos) {
    send_json(res, 406, rpc_error(-32000, "Not Acceptable: GET needs Accept: text/event-stream"));
    return;
  }
  bool standalone = !req.has_header("Last-Event-ID");
  if (standalone && opt.one_get && s->open_gets.fetch_add(1) > 0) {
    s->open_gets--;
    send_json(res, 409, rpc_error(-32000, "Conflict: Only one SSE stream is allowed per session"));
    return;
  }
  if (standalone && !opt.one_get) s->open_gets++;
  std::string replay;
  int stream, origin_stream = -1;
  std::size_t follow_from = 0;
  {
    std::lock_guard<std::mutex> lock(s->mu);
    stream = s->next_stream++;
    if (req.has_header("Last-Event-ID")) {
      std::string last = req.get_header_value("Last-Event-ID");
      auto it = std::find_if(s->events.begin(), s->events.end(), [&](const StoredEvent& e) { return e.id == last; });
      if (it != s->events.end()) {
        // Only the events of the stream that id belongs to, after it (HTTP-44).
        origin_stream = it->stream;
        for (auto j = std::next(it); j != s->events.end(); ++j)
          if ((j->stream == origin_stream || fault("cross-stream-replay")) && !j->data.empty())
            replay += "id: " + j->id + "\nevent: message\ndata: " + j->data + "\n\n";
      }
    }
    follow_from = s->events.size();
  }
  res.status = 200;
  res.set_header("Cache-Control", "no-cache");
  auto sent = std::make_shared<bool>(false);
  auto follow = std::make_shared<std::size_t>(follow_from);
  res.set_chunked_content_provider("text/event-stream", [s, stream, replay, sent, origin_stream, follow](
                                                            size_t, httplib::DataSink& sink) {
    if (!*sent && !replay.empty()) sink.write(replay.data(), replay.size());
    *sent = true;
    if (origin_stream >= 0) {
      // A resumed stream goes on with its own later events (a request still running), nothing else.
      auto until = std::chrono::steady_clock::now() + 30s;
      while (std::chrono::steady_clock::now() < until && sink.is_writable()) {
        std::string out;
        bool over;
        {
          std::lock_guard<std::mutex> lock(s->mu);
          for (; *follow < s->events.size(); ++*follow) {
            const auto& e = s->events[*follow];
            if (e.stream == origin_stream && !e.data.empty())
              out += "id: " + e.id + "\nevent: message\ndata: " + e.data + "\n\n";
          }
          over = s->done_streams.count(origin_stream) > 0;  // everything it will ever carry is out
        }
        if (!out.empty() && !sink.write(out.data(), out.size())) return false;
        if (over) break;
        std::this_thread::sleep_for(20ms);
      }
      sink.done();
      return true;
    }
    // A bounded stream: the test server must not keep threads for ever.
    auto until = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < until && sink.is_writable() && s->backend->alive()) {
      if (s->open_posts > 0) {
        // A request's stream is open: what the backend says now belongs to that request (HTTP-22).
        std::this_thread::sleep_for(10ms);
        continue;
      }
      if (auto m = s->backend->next_unsolicited(100ms)) {
        std::string ev = sse_event(*s, stream, m->dump());
        if (!sink.write(ev.data(), ev.size())) return false;
      }
    }
    sink.done();
    return true;
  }, [s, standalone](bool) {
    if (standalone) s->open_gets--;
  });
}

void handle_delete(const httplib::Request& req, httplib::Response& res) {
  if (refused_modern_only(res)) return;
  auto s = session_for(req, res);
  if (!s) return;
  if (!fault("unknown-session-accepted")) {
    std::lock_guard<std::mutex> lock(sessions_mu);
    sessions.erase(s->id);
    if (latest == s) latest = nullptr;
  }
  res.status = 200;
}

// 2024-11-05 HTTP+SSE: GET /sse opens the session and streams everything; POST /messages feeds it.
void legacy_routes(httplib::Server& srv) {
  srv.Get("/sse", [](const httplib::Request& req, httplib::Response& res) {
    if (!origin_ok(req)) {
      send_json(res, 403, rpc_error(-32000, "Forbidden: invalid Origin"));
      return;
    }
    auto s = std::make_shared<Session>();
    s->id = random_id();
    s->backend = std::make_unique<httpfront::BackendProcess>(opt.backend, true);
    {
      std::lock_guard<std::mutex> lock(sessions_mu);
      sessions[s->id] = s;
    }
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    auto started = std::make_shared<bool>(false);
    res.set_chunked_content_provider("text/event-stream", [s, started](size_t, httplib::DataSink& sink) {
      if (!*started) {
        std::string first = fault("legacy-no-endpoint") ? "event: message\ndata: {}\n\n" : "";
        first += "event: endpoint\ndata: /messages?sessionId=" + s->id + "\n\n";
        sink.write(first.data(), first.size());
        *started = true;
      }
      auto until = std::chrono::steady_clock::now() + 120s;
      while (std::chrono::steady_clock::now() < until && sink.is_writable() && s->backend->alive()) {
        if (auto m = s->backend->next_unsolicited(100ms)) {
          std::string ev = "event: message\ndata: " + m->dump() + "\n\n";
          if (!sink.write(ev.data(), ev.size())) break;
        }
      }
      std::lock_guard<std::mutex> lock(sessions_mu);
      sessions.erase(s->id);
      sink.done();
      return true;
    });
  });
  srv.Post("/messages", [](const httplib::Request& req, httplib::Response& res) {
    if (!origin_ok(req)) {
      send_json(res, 403, rpc_error(-32000, "Forbidden: invalid Origin"));
      return;
    }
    std::shared_ptr<Session> s;
    {
      std::lock_guard<std::mutex> lock(sessions_mu);
      auto it = sessions.find(req.get_param_value("sessionId"));
      if (it != sessions.end()) s = it->second;
    }
    if (!s) {
      send_json(res, 404, rpc_error(-32001, "Session not found"));
      return;
    }
    auto parsed = testserver::parse_message_text(req.body);
    if (!std::holds_alternative<json>(parsed)) {
      send_json(res, 400, rpc_error(-32700, "Parse error"));
      return;
    }
    s->backend->write_line(std::get<json>(parsed).dump());
    res.status = 202;
    res.set_content("Accepted", "text/plain");
  });
}

int usage(const std::string& why) {
  std::cerr << "mcpspec-httpserver: " << why << "\n"
            << "usage: mcpspec-httpserver --backend CMD [--port N] [--response json|sse|alternate] [--no-get] [--one-get]\n"
            << "                          [--legacy] [--close-early] [--modern-only] [--fault NAME] [--list-faults]\n"
            << "  the port comes from --port or the PORT environment variable\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  if (const char* p = std::getenv("PORT")) opt.port = std::atoi(p);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--port") opt.port = std::stoi(value());
      else if (a == "--backend") opt.backend = value();
      else if (a == "--response") opt.response = value();
      else if (a == "--no-get") opt.get = false;
      else if (a == "--one-get") opt.one_get = true;
      else if (a == "--modern-only") opt.modern_only = true;
      else if (a == "--legacy") opt.legacy = true;
      else if (a == "--close-early") opt.close_early = true;
      else if (a == "--fault") opt.fault = value();
      else if (a == "--list-faults") {
        for (const auto& f : httpfront::faults()) std::cout << f.name << "\t" << f.requirement << "\t" << f.what << "\n";
        return 0;
      } else return usage("unknown option " + a);
    } catch (const std::exception& e) {
      return usage(e.what());
    }
  }
  if (opt.backend.empty()) return usage("--backend is required");
  if (opt.port <= 0 || opt.port > 65535) return usage("no valid port (--port or PORT)");
  if (opt.response != "json" && opt.response != "sse" && opt.response != "alternate")
    return usage("--response must be json, sse or alternate");
  if (!opt.fault.empty() && !httpfront::known_fault(opt.fault)) return usage("unknown fault " + opt.fault);

  httplib::Server srv;
  // Each open response stream holds a worker: a client with many requests in flight (a fuzzer's
  // window) must not starve the pool.
  srv.new_task_queue = [] { return new httplib::ThreadPool(64); };
  if (opt.legacy) {
    legacy_routes(srv);
  } else {
    srv.Post("/mcp", handle_post);
    srv.Get("/mcp", handle_get);
    srv.Delete("/mcp", handle_delete);
  }
  std::cerr << "mcpspec-httpserver: listening on 127.0.0.1:" << opt.port << (opt.legacy ? " (legacy SSE)" : "")
            << (opt.fault.empty() ? "" : " with fault " + opt.fault) << "\n";
  // The Debian library listens with a backlog of 5; a client with many requests in flight opens
  // more connections than that at once, and dropped SYNs come back a second later. Listening
  // again on the bound socket raises the backlog (Linux).
  int listen_fd = -1;
  srv.set_socket_options([&listen_fd](int sock) {
    httplib::default_socket_options(sock);
    listen_fd = sock;
  });
  if (!srv.bind_to_port("127.0.0.1", opt.port)) {
    std::cerr << "mcpspec-httpserver: cannot listen on 127.0.0.1:" << opt.port << "\n";
    return 1;
  }
  if (listen_fd >= 0) ::listen(listen_fd, 128);
  return srv.listen_after_bind() ? 0 : 1;
}
