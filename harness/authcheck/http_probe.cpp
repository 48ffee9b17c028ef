#include "harness/authcheck/http_probe.hpp"

#include "harness/authcheck/resource_uri.hpp"
#include "harness/protocol/peer_json.hpp"
#include "harness/transport/http/sse_parser.hpp"

#include <httplib.h>

#include <algorithm>
#include <cctype>

namespace mcpspec::authcheck {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void add_messages(const nlohmann::json& doc, nlohmann::json& out) {
  if (doc.is_array()) {
    for (const auto& m : doc)
      if (m.is_object()) out.push_back(m);
  } else if (doc.is_object()) {
    out.push_back(doc);
  }
}

}  // namespace

std::string ProbeResponse::header(const std::string& lower_name) const {
  std::string out;
  for (const auto& [k, v] : headers)
    if (k == lower_name) out += (out.empty() ? "" : ", ") + v;
  return out;
}

bool ProbeResponse::has_header(const std::string& lower_name) const {
  return std::any_of(headers.begin(), headers.end(), [&](const auto& h) { return h.first == lower_name; });
}

bool ProbeResponse::has_result() const {
  return std::any_of(messages.begin(), messages.end(), [](const auto& m) { return m.contains("result"); });
}

bool ProbeResponse::is_json() const { return lower(header("content-type")).rfind("application/json", 0) == 0; }

std::string ProbeResponse::line(const ProbeRequest& r) const {
  return r.method + " " + r.url + " -> " + (reached ? std::to_string(status) : "no answer (" + error + ")");
}

ProbeResponse send_probe(const ProbeRequest& r, int timeout_ms) {
  const UriParts u = split_uri(r.url);
  if (u.scheme != "http" && u.scheme != "https")
    throw std::invalid_argument("not an absolute http(s) URL: " + r.url);
  ProbeResponse out;
  httplib::Client client(u.scheme + "://" + u.authority);
  const auto secs = timeout_ms / 1000, usecs = (timeout_ms % 1000) * 1000;
  client.set_connection_timeout(secs, usecs);
  client.set_read_timeout(secs, usecs);
  client.set_write_timeout(secs, usecs);
  client.set_follow_location(false);

  httplib::Request req;
  req.method = r.method;
  req.path = (u.path.empty() ? "/" : u.path) + (u.query.empty() ? "" : "?" + u.query);
  for (const auto& [k, v] : r.headers) req.headers.emplace(k, v);
  if (!r.body.empty() || r.method == "POST") {
    req.body = r.body;
    if (!r.content_type.empty()) req.headers.emplace("Content-Type", r.content_type);
  }
  bool sse = false;
  transport::http::SseParser parser(kMaxBody);
  std::vector<transport::http::SseEvent> events;
  req.response_handler = [&](const httplib::Response& head) {
    out.status = head.status;
    for (const auto& [k, v] : head.headers) out.headers.emplace_back(lower(k), v);
    sse = lower(head.get_header_value("Content-Type")).rfind("text/event-stream", 0) == 0;
    return true;
  };
  // A stream stays open for ever: stop at the first JSON-RPC response, or when the cap is reached.
  req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
    out.body.append(data, std::min(n, kMaxBody - out.body.size()));
    if (out.body.size() >= kMaxBody) return false;
    if (!sse) return true;
    events.clear();
    parser.feed(std::string_view(data, n), events);
    for (const auto& e : events) {
      if (e.type() != "message" || !e.has_data) continue;
      auto read = protocol::read_peer_json(e.data);
      if (read.status != protocol::PeerJson::Status::Ok) continue;
      add_messages(read.value, out.messages);
      if (read.value.is_object() && read.value.contains("id") && !read.value.contains("method")) return false;
    }
    return true;
  };
  httplib::Response res;
  httplib::Error err = httplib::Error::Success;
  bool ok = client.send(req, res, err);
  out.reached = out.status != 0;
  if (!out.reached) {
    out.error = ok ? "no status" : httplib::to_string(err);
    return out;
  }
  if (!sse) {
    auto read = protocol::read_peer_json(out.body);
    if (read.status == protocol::PeerJson::Status::Ok) {
      if (out.is_json()) out.json = read.value;
      add_messages(read.value, out.messages);
    }
  }
  return out;
}

}  // namespace mcpspec::authcheck
