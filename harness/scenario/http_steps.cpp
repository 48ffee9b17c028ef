#include "harness/scenario/http_steps.hpp"

#include "harness/protocol/peer_json.hpp"
#include "harness/scenario/session.hpp"
#include "harness/transport/http/http_connection.hpp"
#include "harness/transport/http/legacy_sse_transport.hpp"
#include "harness/transport/http/sse_parser.hpp"
#include "harness/transport/http/streamable_http_transport.hpp"

#include <algorithm>

namespace mcpspec::scenario {

using nlohmann::json;
namespace th = transport::http;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "current" (the transport's value), "none" (omit), or a literal value.
std::string pick(const json& spec, const char* key, const std::string& current) {
  if (!spec.contains(key)) return current;
  const json& v = spec[key];
  if (v.is_null()) return "";
  if (!v.is_string()) throw ScenarioBug(std::string("http step: \"") + key + "\" must be a string or null");
  std::string s = v.get<std::string>();
  if (s == "current") return current;
  if (s == "none") return "";
  return s;
}

void add_messages(const json& doc, json& out) {
  if (doc.is_array())
    for (const auto& m : doc) out.push_back(m);
  else
    out.push_back(doc);
}

}  // namespace

HttpStepOutcome run_http_step(const json& spec, transport::Transport* t, Deadline deadline) {
  if (!spec.is_object()) throw ScenarioBug("http step: the request must be an object");
  th::Url endpoint;
  std::string session, version, origin;
  std::size_t max_bytes = 16 * 1024 * 1024;
  if (auto* h = dynamic_cast<th::StreamableHttpTransport*>(t)) {
    // The messages before this step first: the server takes each POST on a connection of its own
    // and may handle this request before an earlier notification otherwise. If one never gets a
    // status, the check goes ahead at the deadline's end anyway, and the monitor says the rest.
    h->await_heard(Deadline::after_ms(std::min(deadline.remaining_ms(), 5000)));
    endpoint = h->endpoint();
    session = h->session_id();
    version = h->protocol_header();
    origin = h->origin();
    max_bytes = h->max_message_bytes();
  } else if (auto* s = dynamic_cast<th::LegacySseTransport*>(t)) {
    // Legacy: "post" targets the endpoint the server announced, anything else the SSE URL.
    endpoint = spec.value("to", std::string()) == "post" ? s->post_url() : s->sse_url();
  } else {
    throw ScenarioBug("http step on the " + (t ? t->name() : std::string("missing")) +
                      " transport; give the scenario \"requires\": {\"transports\": [\"http\"]}");
  }

  th::HttpRequest r;
  r.method = spec.value("method", std::string("POST"));
  r.target = spec.contains("path") ? spec["path"].get<std::string>() : endpoint.target;
  bool is_post = r.method == "POST";
  std::string accept = spec.value("accept", std::string(is_post ? "application/json, text/event-stream"
                                                               : "text/event-stream"));
  if (!accept.empty()) r.headers.emplace_back("Accept", accept);
  std::string content_type = spec.value("content_type", std::string(is_post ? "application/json" : ""));
  if (!content_type.empty()) r.headers.emplace_back("Content-Type", content_type);
  if (auto v = pick(spec, "session", session); !v.empty()) r.headers.emplace_back("Mcp-Session-Id", v);
  if (auto v = pick(spec, "protocol_version", version); !v.empty()) r.headers.emplace_back("MCP-Protocol-Version", v);
  if (auto v = pick(spec, "origin", origin); !v.empty()) r.headers.emplace_back("Origin", v);
  if (spec.contains("last_event_id")) r.headers.emplace_back("Last-Event-ID", spec["last_event_id"].get<std::string>());
  if (spec.contains("headers")) {
    if (!spec["headers"].is_object()) throw ScenarioBug("http step: \"headers\" must be an object");
    for (const auto& [k, v] : spec["headers"].items()) {
      // A named header replaces a default of the same name; null removes it. (The name is copied
      // out of the structured binding because clang before 16 cannot capture one in a lambda.)
      const std::string& name = k;
      std::erase_if(r.headers, [&name](const auto& h) { return th::iequals(h.first, name); });
      if (!v.is_null()) r.headers.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    }
  }
  if (spec.contains("body_raw")) r.body = spec["body_raw"].get<std::string>();
  else if (spec.contains("body")) r.body = spec["body"].dump();

  int read_ms = spec.value("read_ms", 1500);
  std::size_t max_events = spec.value("max_events", static_cast<std::size_t>(1000));

  th::HttpConnection c;
  c.connect(endpoint.host, endpoint.port, deadline);
  c.write_all(th::format_request(r, endpoint.host_header()), deadline);
  th::HttpHead head = c.read_head(deadline, r.method == "HEAD");

  json out;
  out["status"] = head.status;
  json headers = json::object();
  for (const auto& [k, v] : head.headers) {
    std::string name = lower(k);
    headers[name] = headers.contains(name) ? headers[name].get<std::string>() + ", " + v : v;
  }
  out["headers"] = headers;
  std::string ct = lower(head.header("Content-Type"));
  json messages = json::array(), events = json::array(), ids = json::array();
  std::string body;
  bool closed = ct.rfind("text/event-stream", 0) != 0;
  if (ct.rfind("text/event-stream", 0) == 0) {
    // A stream may stay open for ever: read for read_ms or until enough message events came.
    Deadline stop = Deadline::after_ms(read_ms).earliest(deadline);
    th::SseParser parser(max_bytes);
    std::vector<th::SseEvent> evs;
    std::size_t message_events = 0;
    try {
      std::string chunk;
      for (bool more = true; more && message_events < max_events;) {
        chunk.clear();
        more = c.read_body(chunk, stop);
        if (body.size() < 65536) body += chunk.substr(0, 65536 - body.size());
        evs.clear();
        parser.feed(chunk, evs);
        for (const auto& e : evs) {
          json je = {{"event", e.type()}, {"data", e.data}};
          if (e.id) {
            je["id"] = *e.id;
            ids.push_back(*e.id);
          }
          if (e.retry) je["retry"] = *e.retry;
          if (e.oversize) je["oversize"] = true;
          if (e.has_data && !e.data.empty()) {
            // Through the one peer-frame reader: a value nested too deep would overflow the stack
            // when copied below.
            if (auto read = protocol::read_peer_json(e.data); read.status == protocol::PeerJson::Status::Ok) {
              je["json"] = read.value;
              if (e.type() == "message") {
                add_messages(read.value, messages);
                ++message_events;
              }
            }
          }
          events.push_back(std::move(je));
        }
        if (!more) closed = true;
      }
    } catch (const transport::TransportError&) {
      closed = false;  // still open when we stopped reading
    }
    c.abort();
  } else {
    body = c.read_all(deadline, max_bytes);
  }
  out["body"] = body;
  out["json"] = nullptr;
  if (ct.rfind("text/event-stream", 0) != 0 && !body.empty()) {
    if (auto read = protocol::read_peer_json(body); read.status == protocol::PeerJson::Status::Ok) {
      out["json"] = std::move(read.value);
      add_messages(out["json"], messages);
    }
  }
  out["events"] = events;
  out["event_ids"] = ids;
  out["messages"] = messages;
  out["stream_closed"] = closed;
  out["transport_session"] = session.empty() ? json(nullptr) : json(session);
  HttpStepOutcome o;
  o.response = std::move(out);
  std::string sent;
  for (const auto& [k, v] : r.headers) sent += (sent.empty() ? "" : "; ") + k + ": " + v;
  o.log = "http step: " + r.method + " " + r.target + " [" + sent + "]" + (r.body.empty() ? "" : " " + r.body.substr(0, 300)) + " -> " + std::to_string(head.status) +
          (ct.empty() ? "" : " " + ct) + (body.empty() ? "" : ": " + body.substr(0, 400));
  return o;
}

}  // namespace mcpspec::scenario
