#include "harness/scenario/client_session.hpp"

#include "harness/protocol/peer_json.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/util/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

namespace mcpspec::scenario {

using nlohmann::json;
using protocol::Kind;

namespace {


std::optional<json> progress_token_of(const json& msg) {
  if (!msg.contains("params") || !msg["params"].is_object()) return std::nullopt;
  const auto& p = msg["params"];
  if (!p.contains("_meta") || !p["_meta"].is_object() || !p["_meta"].contains("progressToken")) return std::nullopt;
  return p["_meta"]["progressToken"];
}

}  // namespace

ClientSession::ClientSession(const Scenario& scenario, SessionConfig config, ScenarioResult& result,
                             Clock::time_point started)
    : Conversation(scenario, std::move(config), result, started, protocol::Sender::Client) {}

const std::string& ClientSession::validation_version() const {
  if (!negotiated_.empty()) return negotiated_;
  if (!proposed_.empty()) return proposed_;
  return config_.proposed_version;
}

void ClientSession::attach(std::unique_ptr<transport::ClientCarrier> t) {
  target_ = t.get();
  adopt(std::move(t));
}

json ClientSession::next_request_id() {
  for (;;) {
    json id = "mcpspec-" + std::to_string(next_id_++);
    if (!used_ids().count(protocol::id_key(id))) return id;
  }
}

void ClientSession::note_outbound_response(const protocol::Classified& c, const json& message) {
  if (!c.id) return;
  auto it = client_requests_.find(protocol::id_key(*c.id));
  if (it == client_requests_.end()) return;
  it->second.answered = true;
  if (it->second.method != "initialize" || c.kind != Kind::Result) return;
  init_answered_ = true;
  const json& r = message["result"];
  if (r.is_object() && r.contains("protocolVersion") && r["protocolVersion"].is_string()) {
    std::string v = r["protocolVersion"];
    if (config_.schemas && config_.schemas->has_version(v)) negotiated_ = v;
  }
  declared_ = r.is_object() && r.contains("capabilities") ? r["capabilities"] : json::object();
}

std::string ClientSession::method_answered_by_us(const protocol::Classified& c) const {
  if (!c.id || (c.kind != Kind::Result && c.kind != Kind::Error)) return "";
  auto it = client_requests_.find(protocol::id_key(*c.id));
  return it == client_requests_.end() ? "" : it->second.method;
}

void ClientSession::note_outbound(const protocol::Classified& c, const json& message, bool /*deliberately_invalid*/) {
  if (c.kind == Kind::Request && c.id) {
    OurRequest o{c.method, false, std::nullopt};
    if (auto tk = progress_token_of(message)) {
      o.progress_token = protocol::id_key(*tk);
      progress_from_client_[*o.progress_token] = std::nullopt;
    }
    our_requests_[protocol::id_key(*c.id)] = o;
    used_ids().insert(protocol::id_key(*c.id));
  }
  if (c.kind == Kind::Result || c.kind == Kind::Error) {
    // Whatever the client sent before this response must be judged as sent before it (the lifecycle
    // monitor cares about order): read what has already arrived first, without waiting.
    drain(1000);
    note_outbound_response(c, message);
  }
}

void ClientSession::on_new_connection() {
  seen_connections_ = target_->connections();
  disconnected_ = false;
  if (seen_connections_ > 1) {
    // The client started the server again: a new MCP session with its own lifecycle and ids.
    event(fmt::format("the client started the server again (connection {})", seen_connections_));
    client_requests_.clear();
    our_requests_.clear();
    progress_from_client_.clear();
    first_request_seen_ = init_answered_ = initialized_seen_ = false;
    init_id_key_.clear();
    negotiated_.clear();
    client_caps_ = nullptr;
    declared_ = nullptr;
  } else {
    event("the client started the server (connected to the bridge)");
  }
}

void ClientSession::before_event() {
  if (target_ && target_->connections() != seen_connections_) on_new_connection();
}

void ClientSession::on_stderr(const std::string& text) {
  if (text.rfind("bridge[", 0) == 0) last_bridge_note_ = text;
  log(WireEntry::Dir::Stderr, text);
}

void ClientSession::on_closed(const std::string& text) {
  event(text);
  disconnected_ = true;
}

void ClientSession::on_exited(const std::string& text) { event("client ended: " + text); }

void ClientSession::framing_finding(const std::string& text) {
  std::string trimmed = text;
  trimmed.erase(0, trimmed.find_first_not_of(" \t\r"));
  if (trimmed.empty())
    monitor_finding("framing", {"STDIO-02"}, "an empty line on the server's stdin (messages are one per line)", text);
  else
    monitor_finding("framing", {"STDIO-04", "STDIO-02"},
                    "the client wrote a line to the server's stdin that is not a JSON-RPC message", text);
}

void ClientSession::monitor_request(const json& msg, const protocol::Classified& c) {
  std::string key = c.id ? protocol::id_key(*c.id) : "";
  if (c.id && !c.id->is_null() && client_requests_.count(key))
    monitor_finding("ids", {"BASE-05"}, "the client used request id " + compact(*c.id) + " twice in one session",
                    compact(msg));
  if (!first_request_seen_) {
    first_request_seen_ = true;
    if (c.method != "initialize" && c.method != "ping")
      monitor_finding("lifecycle", {"LC-02", "LC-01"},
                      "the client's first request is " + c.method + ", not initialize", compact(msg));
  }
  if (c.method == "initialize") {
    init_id_key_ = key;
    const json& p = msg.contains("params") ? msg["params"] : json();
    if (p.is_object() && p.contains("protocolVersion") && p["protocolVersion"].is_string()) {
      std::string v = p["protocolVersion"];
      if (config_.schemas && config_.schemas->has_version(v)) proposed_ = v;
    }
    client_caps_ = p.is_object() && p.contains("capabilities") ? p["capabilities"] : json::object();
  } else if (c.method != "ping") {
    if (!init_answered_)
      monitor_finding("lifecycle", {"LC-05", "LC-01"},
                      "the client sent " + c.method + " before the initialize response (only ping is allowed then)",
                      compact(msg));
    else if (!initialized_seen_)
      monitor_finding("lifecycle", {"LC-04"},
                      "the client sent " + c.method + " before its notifications/initialized", compact(msg));
    check_capability(msg, c, declared_, client_caps_);
  }
  ClientRequest r{c.method, std::nullopt, false};
  if (auto tk = progress_token_of(msg)) {
    if (!(tk->is_string() || tk->is_number_integer()))
      monitor_finding("progress", {"PROG-01"}, "a progressToken that is neither a string nor an integer", compact(msg));
    std::string tkey = protocol::id_key(*tk);
    for (const auto& [id, other] : client_requests_)
      if (!other.answered && other.progress_token == tkey)
        monitor_finding("progress", {"PROG-02"},
                        "progress token " + compact(*tk) + " is already used by the client's active request " +
                            id.substr(2) + " (" + other.method + ")",
                        compact(msg));
    r.progress_token = tkey;
  }
  if (c.id && !c.id->is_null()) client_requests_[key] = r;
}

void ClientSession::monitor_notification(const json& msg, const protocol::Classified& c) {
  check_capability(msg, c, declared_, client_caps_);
  const json empty = json::object();
  const json& params = msg.contains("params") && msg["params"].is_object() ? msg["params"] : empty;
  if (c.method == "notifications/initialized") {
    if (!init_answered_)
      monitor_finding("lifecycle", {"LC-04", "LC-01"},
                      "notifications/initialized arrived before the initialize response", compact(msg));
    initialized_seen_ = true;
  } else if (c.method == "notifications/cancelled") {
    if (!params.contains("requestId")) return;  // the schema monitor reports the missing field
    std::string key = protocol::id_key(params["requestId"]);
    if (!init_id_key_.empty() && key == init_id_key_)
      monitor_finding("cancellation", {"CAN-02"}, "the client cancelled its initialize request", compact(msg));
    else if (!client_requests_.count(key))
      monitor_finding("cancellation", {"CAN-01"},
                      "the client cancelled request " + compact(params["requestId"]) + ", which it never sent",
                      compact(msg));
  } else if (c.method == "notifications/progress") {
    if (!params.contains("progressToken")) return;
    std::string tk = protocol::id_key(params["progressToken"]);
    auto it = progress_from_client_.find(tk);
    if (it == progress_from_client_.end()) {
      monitor_finding("progress", {"PROG-06"},
                      "progress for token " + compact(params["progressToken"]) + ", which no request of the harness carried",
                      compact(msg));
      return;
    }
    if (params.contains("progress") && params["progress"].is_number()) {
      double p = params["progress"].get<double>();
      if (it->second && p <= *it->second)
        monitor_finding("progress", {"PROG-03"},
                        fmt::format("progress went from {} to {}: it must strictly increase", *it->second, p),
                        compact(msg));
      it->second = p;
    }
  }
}

void ClientSession::monitor_response(const json& msg, const protocol::Classified& c, std::string& answered_method) {
  if (!c.id || c.id->is_null()) {
    monitor_finding("unsolicited_response", {"BASE-12", "BASE-06"},
                    "a response without an id (the harness sent nothing unreadable)", compact(msg));
    return;
  }
  auto it = our_requests_.find(protocol::id_key(*c.id));
  if (it == our_requests_.end()) {
    monitor_finding("unsolicited_response", {"BASE-06", "BASE-12"},
                    "a response with id " + compact(*c.id) + ", which matches no request the harness sent",
                    compact(msg));
    return;
  }
  answered_method = it->second.method;
  if (it->second.answered) {
    monitor_finding("duplicate_response", {"MCPSPEC-RESPONSE"},
                    "a second response to request " + compact(*c.id) + " (" + it->second.method + ")", compact(msg));
    return;
  }
  it->second.answered = true;
}

bool ClientSession::wait_disconnect(Deadline deadline) {
  while (!disconnected_ && !deadline.passed()) {
    pump_once(deadline);
    if (exit_ && !target_->connected()) break;
  }
  return disconnected_ || (exit_ && !target_->connected());
}

}  // namespace mcpspec::scenario
