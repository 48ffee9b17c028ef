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


// Which server capability a client request needs (dotted path into the server's capabilities),
// with the requirement that names the rule most precisely.
struct Needed {
  std::string capability;
  std::vector<std::string> requirements;
};
std::optional<Needed> capability_needed(const std::string& method, const std::string& version) {
  auto starts = [&](const char* p) { return method.rfind(p, 0) == 0; };
  if (method == "resources/subscribe" || method == "resources/unsubscribe")
    return Needed{"resources.subscribe", {"RES-04", "LC-15"}};
  if (starts("tools/")) return Needed{"tools", {"LC-15"}};
  if (starts("resources/")) return Needed{"resources", {"LC-15"}};
  if (starts("prompts/")) return Needed{"prompts", {"LC-15"}};
  if (method == "logging/setLevel") return Needed{"logging", {"LC-15"}};
  // 2024-11-05 had no completions capability: completion/complete was always allowed there.
  if (method == "completion/complete" && version != "2024-11-05") return Needed{"completions", {"LC-15"}};
  return std::nullopt;
}

std::optional<json> progress_token_of(const json& msg) {
  if (!msg.contains("params") || !msg["params"].is_object()) return std::nullopt;
  const auto& p = msg["params"];
  if (!p.contains("_meta") || !p["_meta"].is_object() || !p["_meta"].contains("progressToken")) return std::nullopt;
  return p["_meta"]["progressToken"];
}

}  // namespace

ClientSession::ClientSession(const Scenario& scenario, SessionConfig config, ScenarioResult& result,
                             Clock::time_point started)
    : scenario_(scenario), config_(std::move(config)), result_(result), started_(started) {}

ClientSession::~ClientSession() {
  if (target_) target_->stop();
}

const std::string& ClientSession::validation_version() const {
  if (!negotiated_.empty()) return negotiated_;
  if (!proposed_.empty()) return proposed_;
  return config_.proposed_version;
}

void ClientSession::log(WireEntry::Dir dir, const std::string& text) {
  if (result_.wire.size() >= config_.max_wire_entries) {
    if (!wire_truncated_) {
      wire_truncated_ = true;
      result_.wire.push_back({ms_since(started_), WireEntry::Dir::Event, "wire log truncated: too many entries"});
    }
    return;
  }
  std::string t = text.size() > config_.max_wire_text
                      ? text.substr(0, config_.max_wire_text) + fmt::format(" [... {} bytes in all]", text.size())
                      : text;
  result_.wire.push_back({ms_since(started_), dir, std::move(t)});
}

void ClientSession::event(const std::string& text) { log(WireEntry::Dir::Event, text); }

void ClientSession::add_finding(Finding f) {
  if (result_.findings.size() >= config_.max_findings) return;
  result_.findings.push_back(std::move(f));
}

void ClientSession::monitor_finding(const std::string& monitor, std::vector<std::string> reqs,
                                    const std::string& message, const std::string& received) {
  if (!scenario_.monitor_on(monitor)) return;
  if (!reported_.insert(monitor + "|" + message).second) return;
  Level level = Level::Info;
  for (const auto& r : reqs) {
    Level l = config_.catalog ? config_.catalog->level_of(validation_version(), r) : Level::Must;
    if (static_cast<int>(l) < static_cast<int>(level)) level = l;
  }
  add_finding({std::move(reqs), level, "[" + monitor + "] " + message, -1, "", received, ""});
}

void ClientSession::attach(std::unique_ptr<ClientTarget> t) {
  target_ = std::move(t);
  target_->start();
  event(target_->describe());
}

json ClientSession::next_request_id() {
  // Server-side ids are strings, so they can never be confused with the client's own numbering.
  for (;;) {
    json id = "mcpspec-" + std::to_string(next_id_++);
    if (!used_ids_.count(protocol::id_key(id))) return id;
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

void ClientSession::send(const json& message, bool deliberately_invalid, Deadline deadline) {
  auto c = protocol::classify(message);
  if (!deliberately_invalid) {
    if (!c.problems.empty())
      throw ScenarioBug("the scenario sends an invalid message (" + c.problems.front() +
                        "); mark the step \"invalid\": true if that is deliberate: " + compact(message));
    if (scenario_.validate == "full" && config_.schemas) {
      std::string answered;
      if (c.id && (c.kind == Kind::Result || c.kind == Kind::Error)) {
        auto it = client_requests_.find(protocol::id_key(*c.id));
        if (it != client_requests_.end()) answered = it->second.method;
      }
      auto v = config_.schemas->validate(message, validation_version(), protocol::Sender::Server, answered);
      if (!v.valid) {
        std::string why = v.issues.empty() ? "" : v.issues.front().pointer + ": " + v.issues.front().message;
        throw ScenarioBug("the scenario sends a message that is not valid " + validation_version() + " (" + why +
                          "); mark the step \"invalid\": true if that is deliberate: " + compact(message));
      }
    }
  }
  if (c.kind == Kind::Request && c.id) {
    OurRequest o{c.method, false, std::nullopt};
    if (auto tk = progress_token_of(message)) {
      o.progress_token = protocol::id_key(*tk);
      progress_from_client_[*o.progress_token] = std::nullopt;
    }
    our_requests_[protocol::id_key(*c.id)] = o;
    used_ids_.insert(protocol::id_key(*c.id));
  }
  if (c.kind == Kind::Result || c.kind == Kind::Error) {
    // Whatever the client sent before this response must be judged as sent before it (the lifecycle
    // monitor cares about order): read what has already arrived first, without waiting.
    for (int i = 0; i < 1000 && pump_once(Deadline::after_ms(1)); ++i) {
    }
    note_outbound_response(c, message);
  }
  std::string text = compact(message);
  log(WireEntry::Dir::Out, text);
  last_send_seq_ = seq_;
  if (!target_) throw transport::TransportError("no client");
  target_->send(text, deadline);
}

void ClientSession::send_raw(const std::string& bytes, Deadline deadline) {
  log(WireEntry::Dir::Out, bytes);
  last_send_seq_ = seq_;
  if (!target_) throw transport::TransportError("no client");
  target_->send_raw(bytes, deadline);
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
    declared_ = nullptr;
  } else {
    event("the client started the server (connected to the bridge)");
  }
}

bool ClientSession::pump_once(Deadline deadline) {
  if (!target_) return false;
  auto e = target_->receive(deadline);
  if (target_->connections() != seen_connections_) on_new_connection();
  using T = transport::Event::Type;
  switch (e.type) {
    case T::Timeout: return false;
    case T::Settled: return true;  // a wake-up only (the server-side transports never narrow)
    case T::Frame: on_frame(e.text); return true;
    case T::Rejected: return true;  // client-side transports refuse nothing of ours
    case T::Stderr:
      if (e.text.rfind("bridge[", 0) == 0) last_bridge_note_ = e.text;
      log(WireEntry::Dir::Stderr, e.text);
      return true;
    case T::Oversize:
      event(e.text);
      monitor_finding("framing", {"STDIO-04"}, e.text);
      return true;
    case T::Closed:
      event(e.text);
      disconnected_ = true;
      return true;
    case T::Exited:
      event("client ended: " + e.text);
      exit_ = e.status;
      return true;
  }
  return false;
}

void ClientSession::on_frame(const std::string& text) {
  heard_ = true;
  log(WireEntry::Dir::In, text);
  auto read = protocol::read_peer_json(text);
  if (read.status == protocol::PeerJson::Status::NotJson) {
    std::string trimmed = text;
    trimmed.erase(0, trimmed.find_first_not_of(" \t\r"));
    if (trimmed.empty())
      monitor_finding("framing", {"STDIO-02"}, "an empty line on the server's stdin (messages are one per line)", text);
    else
      monitor_finding("framing", {"STDIO-04", "STDIO-02"},
                      "the client wrote a line to the server's stdin that is not a JSON-RPC message", text);
    return;
  }
  if (read.status != protocol::PeerJson::Status::Ok) {
    // Too deep to handle safely, or a number beyond a double: noted, not judged (as for servers).
    event("a message could not be read: " + read.detail);
    return;
  }
  on_message(std::move(read.value));
}

void ClientSession::on_message(json msg) {
  auto c = protocol::classify(msg);
  for (const auto& p : c.problems) {
    if (scenario_.validate != "off") monitor_finding("envelope", protocol::envelope_requirements(p), p, compact(msg));
  }
  std::string answered_method;
  if (c.kind == Kind::Result || c.kind == Kind::Error) monitor_response(msg, c, answered_method);
  else if (c.kind == Kind::Notification) monitor_notification(msg, c);
  else if (c.kind == Kind::Request) monitor_request(msg, c);
  if (c.kind != Kind::Batch && c.kind != Kind::Invalid && scenario_.validate == "full" && config_.schemas) {
    auto v = config_.schemas->validate(msg, validation_version(), protocol::Sender::Client, answered_method);
    if (auto line = unchecked_.note(v.unchecked)) event(*line);
    if (!v.valid) {
      std::string what = "not a valid " + validation_version() + " client message";
      if (!v.definition.empty()) what += " (" + v.definition + ")";
      for (std::size_t i = 0; i < v.issues.size() && i < 3; ++i)
        what += (i == 0 ? ": " : "; ") + (v.issues[i].pointer.empty() ? std::string("/") : v.issues[i].pointer) + " " +
                v.issues[i].message;
      monitor_finding("schema", {"MCPSPEC-SCHEMA"}, what, compact(msg));
    }
  }
  inbox_.push_back(InboundMessage{std::move(msg), std::move(c), ++seq_, ms_since(started_)});
  if (inbox_.size() > config_.max_inbox) inbox_.pop_front();
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
    if (p.is_object() && p.contains("capabilities")) client_caps_ = p["capabilities"];
  } else if (c.method != "ping") {
    if (!init_answered_)
      monitor_finding("lifecycle", {"LC-05", "LC-01"},
                      "the client sent " + c.method + " before the initialize response (only ping is allowed then)",
                      compact(msg));
    else if (!initialized_seen_)
      monitor_finding("lifecycle", {"LC-04"},
                      "the client sent " + c.method + " before its notifications/initialized", compact(msg));
    if (init_answered_)
      if (auto need = capability_needed(c.method, validation_version()); need && !capability_declared(declared_, need->capability))
        monitor_finding("capabilities", need->requirements,
                        "the client sent " + c.method + " although the server did not declare the " +
                            need->capability + " capability",
                        compact(msg));
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

std::optional<InboundMessage> ClientSession::take(const std::function<bool(const InboundMessage&)>& select,
                                                  Deadline deadline) {
  for (;;) {
    for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
      if (select(*it)) {
        InboundMessage m = std::move(*it);
        inbox_.erase(it);
        return m;
      }
    }
    if (exit_) return std::nullopt;  // nothing more can come from a client that has ended
    if (deadline.passed()) return std::nullopt;
    pump_once(deadline);
  }
}

void ClientSession::wait_until(Deadline deadline) {
  while (!deadline.passed()) {
    if (exit_) {
      struct timespec ts{0, 5'000'000};
      nanosleep(&ts, nullptr);
      continue;
    }
    pump_once(deadline);
  }
  for (int i = 0; i < 10000 && pump_once(Deadline::after_ms(1)); ++i) {
  }
}

void ClientSession::consume(std::size_t seq) {
  inbox_.erase(std::remove_if(inbox_.begin(), inbox_.end(), [&](const InboundMessage& m) { return m.seq == seq; }),
               inbox_.end());
}

bool ClientSession::wait_disconnect(Deadline deadline) {
  while (!disconnected_ && !deadline.passed()) {
    pump_once(deadline);
    if (exit_ && !target_->connected()) break;
  }
  return disconnected_ || (exit_ && !target_->connected());
}

std::optional<transport::ExitStatus> ClientSession::wait_exit(Deadline deadline) {
  while (!exit_) {
    if (!pump_once(deadline) && deadline.passed()) break;
    if (!exit_ && target_)
      if (auto st = target_->exit_status()) {
        exit_ = st;
        event("client ended: " + st->text());
      }
  }
  return exit_;
}

}  // namespace mcpspec::scenario
