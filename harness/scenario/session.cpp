#include "harness/scenario/session.hpp"

#include "harness/protocol/json_depth.hpp"
#include "harness/protocol/peer_json.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/util/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

namespace mcpspec::scenario {

using nlohmann::json;
using protocol::Kind;

namespace {


std::optional<double> number_of(const json& j) {
  if (j.is_number()) return j.get<double>();
  return std::nullopt;
}

// Which server-to-client requests need which client capability.
const std::map<std::string, std::string> kClientCapabilityOf = {
    {"sampling/createMessage", "sampling"}, {"roots/list", "roots"}, {"elicitation/create", "elicitation"}};

}  // namespace

Session::Session(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started)
    : scenario_(scenario), config_(std::move(config)), result_(result), started_(started) {}

Session::~Session() {
  if (transport_) transport_->stop();
}

const std::string& Session::validation_version() const {
  return negotiated_.empty() ? config_.proposed_version : negotiated_;
}

void Session::log(WireEntry::Dir dir, const std::string& text) {
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

void Session::event(const std::string& text) { log(WireEntry::Dir::Event, text); }

void Session::attach(std::unique_ptr<transport::Transport> t) {
  if (transport_) transport_->stop();
  transport_ = std::move(t);
  gone_ = false;
  heard_ = false;
  gone_reason_.clear();
  exit_.reset();
  inbox_.clear();
  requests_.clear();
  progress_.clear();
  negotiated_.clear();
  server_caps_ = nullptr;
  initialized_sent_ = false;
  transport_->start();
  event(transport_->describe());
}

json Session::next_request_id() {
  while (used_ids_.count(protocol::id_key(json(next_id_)))) ++next_id_;
  return json(next_id_++);
}

void Session::add_finding(Finding f) {
  if (result_.findings.size() >= config_.max_findings) return;
  result_.findings.push_back(std::move(f));
  if (result_.findings.size() == config_.max_findings)
    result_.findings.push_back({{"MCPSPEC-ALIVE"}, Level::Info, "further findings omitted", -1, "", "", ""});
}

void Session::monitor_finding(const std::string& monitor, std::vector<std::string> reqs, const std::string& message,
                              const std::string& received) {
  if (!scenario_.monitor_on(monitor)) return;
  if (!reported_.insert(monitor + "|" + message).second) return;
  Level level = Level::Info;
  for (const auto& r : reqs) {
    Level l = config_.catalog ? config_.catalog->level_of(validation_version(), r) : Level::Must;
    if (static_cast<int>(l) < static_cast<int>(level)) level = l;
  }
  add_finding({std::move(reqs), level, "[" + monitor + "] " + message, -1, "", received, ""});
}

void Session::send(const json& message, bool deliberately_invalid, Deadline deadline) {
  auto c = protocol::classify(message);
  if (!deliberately_invalid) {
    if (!c.problems.empty())
      throw ScenarioBug("the scenario sends an invalid message (" + c.problems.front() +
                        "); mark the step \"invalid\": true if that is deliberate: " + compact(message));
    if (scenario_.validate == "full" && config_.schemas) {
      auto v = config_.schemas->validate(message, validation_version(), protocol::Sender::Client);
      if (!v.valid) {
        std::string why = v.issues.empty() ? "" : v.issues.front().pointer + ": " + v.issues.front().message;
        throw ScenarioBug("the scenario sends a message that is not valid " + validation_version() + " (" + why +
                          "); mark the step \"invalid\": true if that is deliberate: " + compact(message));
      }
    }
  } else {
    ++unreadable_sent_;
  }
  if (c.id) used_ids_.insert(protocol::id_key(*c.id));
  if (c.kind == Kind::Request && c.id) {
    Outstanding o;
    o.method = c.method;
    const json* params = message.contains("params") ? &message["params"] : nullptr;
    if (params && params->is_object() && params->contains("_meta") && (*params)["_meta"].is_object() &&
        (*params)["_meta"].contains("progressToken")) {
      std::string tk = protocol::id_key((*params)["_meta"]["progressToken"]);
      o.progress_token = tk;
      progress_[tk] = ProgressState{protocol::id_key(*c.id), std::nullopt};
    }
    if (c.method == "initialize" && params && params->is_object() && params->contains("capabilities"))
      client_caps_ = (*params)["capabilities"];
    requests_[protocol::id_key(*c.id)] = o;
  }
  if (c.kind == Kind::Notification && c.method == "notifications/initialized") initialized_sent_ = true;
  std::string text = compact(message);
  log(WireEntry::Dir::Out, text);
  last_send_seq_ = seq_;
  if (!transport_) throw transport::TransportError("no target connection");
  transport_->send(text, deadline);
}

void Session::send_raw(const std::string& bytes, Deadline deadline) {
  ++unreadable_sent_;
  log(WireEntry::Dir::Out, bytes);
  last_send_seq_ = seq_;
  if (!transport_) throw transport::TransportError("no target connection");
  transport_->send_raw(bytes, deadline);
}

bool Session::pump_once(Deadline deadline) {
  if (!transport_) return false;
  auto e = transport_->receive(deadline);
  using T = transport::Event::Type;
  switch (e.type) {
    case T::Timeout: return false;
    case T::Settled: return true;  // a wake-up: waits ask reach() themselves
    case T::Frame: on_frame(e.text); return true;
    case T::Rejected:  // the transport noted the status; a body that is a message is judged as one
      if (e.message) on_frame(e.text);
      return true;
    case T::Stderr: log(WireEntry::Dir::Stderr, e.text); return true;
    case T::Oversize:
      log(WireEntry::Dir::Event, e.text);
      monitor_finding("framing", {"MCPSPEC-ALIVE"}, e.text);
      return true;
    case T::Closed:
      event(e.text);
      gone_ = true;
      gone_reason_ = "the target closed its output";
      return true;
    case T::Exited:
      event("target ended: " + e.text);
      exit_ = e.status;
      gone_ = true;
      gone_reason_ = "the target ended (" + e.text + ")";
      return true;
  }
  return false;
}

void Session::on_frame(const std::string& text) {
  heard_ = true;
  log(WireEntry::Dir::In, text);
  auto read = protocol::read_peer_json(text);
  if (read.status == protocol::PeerJson::Status::TooDeep) {
    // Serializing or copying such a value would recurse past the stack (json_depth.hpp).
    event(fmt::format("a message nested deeper than {} levels was not parsed (mcpspec's limit)",
                      protocol::kMaxJsonDepth));
    return;
  }
  if (read.status == protocol::PeerJson::Status::NotJson) {
    std::string trimmed = text;
    trimmed.erase(0, trimmed.find_first_not_of(" \t\r"));
    bool fragment = !trimmed.empty() && std::string("{}[]\"").find(trimmed[0]) != std::string::npos;
    if (trimmed.empty())
      monitor_finding("framing", {"STDIO-02"}, "an empty line on stdout (messages are one per line)", text);
    else if (fragment)
      monitor_finding("framing", {"STDIO-02", "STDIO-03"},
                      "a stdout line is a fragment of JSON: a message spread over several lines (embedded newlines)",
                      text);
    else
      monitor_finding("framing", {"STDIO-03"}, "a stdout line is not a JSON-RPC message (stdout is for protocol only)",
                      text);
    return;
  }
  if (read.status == protocol::PeerJson::Status::NumberOutOfRange) {
    // Valid JSON syntax with a number beyond a double (1e999). It used to escape as a harness
    // error of the whole scenario (found by fuzz/targets/message_parser_fuzz.cpp).
    event("a message could not be read: " + read.detail);
    return;
  }
  on_message(std::move(read.value));
}

void Session::on_message(json msg) {
  auto c = protocol::classify(msg);
  for (const auto& p : c.problems) {
    if (scenario_.validate != "off") monitor_finding("envelope", protocol::envelope_requirements(p), p, compact(msg));
  }
  std::string answered_method;
  if (c.kind == Kind::Batch) {
    // A batch from the target: each element is a message of its own for the monitors.
    if (scenario_.validate != "off" && config_.schemas) validate_inbound(msg, c, "");
  } else if (c.kind == Kind::Result || c.kind == Kind::Error) {
    monitor_response(msg, c, answered_method);
  } else if (c.kind == Kind::Notification) {
    monitor_notification(msg, c);
  } else if (c.kind == Kind::Request) {
    monitor_request(msg, c);
  }
  if (c.kind != Kind::Batch && c.kind != Kind::Invalid && scenario_.validate == "full" && config_.schemas)
    validate_inbound(msg, c, answered_method);
  InboundMessage in{std::move(msg), std::move(c), ++seq_, ms_since(started_)};
  inbox_.push_back(std::move(in));
  if (inbox_.size() > config_.max_inbox) {
    inbox_.pop_front();
    if (reported_.insert("inbox-overflow").second)
      event(fmt::format("more than {} unconsumed messages: the oldest are dropped", config_.max_inbox));
  }
}

void Session::monitor_response(const json& msg, const protocol::Classified& c, std::string& answered_method) {
  bool id_missing = !c.id || c.id->is_null();
  if (id_missing) {
    // Only an error answering a frame we made unreadable on purpose may lack an id.
    if (c.kind == Kind::Error && unreadable_sent_ > 0) {
      --unreadable_sent_;
      return;
    }
    monitor_finding("unsolicited_response", {"BASE-12", "BASE-06"},
                    c.kind == Kind::Error ? "an error response without an id, answering nothing the harness sent "
                                            "unreadable (a response to a notification?)"
                                          : "a result response without an id (a response to a notification?)",
                    compact(msg));
    return;
  }
  auto key = protocol::id_key(*c.id);
  auto it = requests_.find(key);
  if (it == requests_.end()) {
    if (c.kind == Kind::Error && unreadable_sent_ > 0 && used_ids_.count(key)) {
      --unreadable_sent_;
      return;
    }
    monitor_finding("unsolicited_response", {"BASE-06", "BASE-12"},
                    "a response with id " + compact(*c.id) +
                        ", which matches no request the harness sent (ids must be echoed exactly: type and value)",
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
  if (it->second.method == "initialize" && c.kind == Kind::Result && msg["result"].is_object()) {
    const auto& r = msg["result"];
    if (r.contains("protocolVersion") && r["protocolVersion"].is_string()) {
      std::string v = r["protocolVersion"];
      // Validate further traffic with the answered version when we know it; otherwise keep ours.
      if (config_.schemas && config_.schemas->has_version(v)) negotiated_ = v;
      else event("the target answered protocolVersion " + v + ", which mcpspec has no schema for");
    }
    if (r.contains("capabilities")) server_caps_ = r["capabilities"];
  }
}

void Session::monitor_notification(const json& msg, const protocol::Classified& c) {
  const json empty = json::object();
  const json& params = msg.contains("params") && msg["params"].is_object() ? msg["params"] : empty;
  if (c.method == "notifications/progress") {
    if (!params.contains("progressToken")) return;  // the schema monitor reports the missing field
    std::string tk = protocol::id_key(params["progressToken"]);
    auto it = progress_.find(tk);
    if (it == progress_.end()) {
      monitor_finding("progress", {"PROG-06"},
                      "progress for token " + compact(params["progressToken"]) + ", which no request of the harness "
                      "carried", compact(msg));
      return;
    }
    auto req = requests_.find(it->second.request_key);
    if (req != requests_.end() && req->second.answered) {
      monitor_finding("progress", {"PROG-10"},
                      "progress for token " + compact(params["progressToken"]) + " after the response to its request",
                      compact(msg));
    }
    auto p = params.contains("progress") ? number_of(params["progress"]) : std::nullopt;
    if (p) {
      if (it->second.last && *p <= *it->second.last)
        monitor_finding("progress", {"PROG-03"},
                        fmt::format("progress went from {} to {} for token {}: it must strictly increase",
                                    *it->second.last, *p, compact(params["progressToken"])),
                        compact(msg));
      it->second.last = p;
    }
  } else if (c.method == "notifications/message") {
    if (!server_caps_.is_null() && !(server_caps_.is_object() && server_caps_.contains("logging")))
      monitor_finding("capabilities", {"LOG-01"},
                      "a log message (notifications/message) from a server that did not declare the logging capability",
                      compact(msg));
  }
}

void Session::monitor_request(const json& msg, const protocol::Classified& c) {
  // The harness is the client here: answer what a client must answer so the session stays healthy.
  json reply = {{"jsonrpc", "2.0"}, {"id", *c.id}};
  auto cap = kClientCapabilityOf.find(c.method);
  if (c.method == "ping") {
    reply["result"] = json::object();
  } else {
    reply["error"] = {{"code", -32601}, {"message", "mcpspec does not offer " + c.method}};
  }
  if (cap != kClientCapabilityOf.end() && !(client_caps_.is_object() && client_caps_.contains(cap->second)))
    monitor_finding("capabilities", {"LC-15"},
                    "the server sent " + c.method + " although the client did not declare the " + cap->second +
                        " capability",
                    compact(msg));
  if (c.method != "ping" && !initialized_sent_)
    monitor_finding("capabilities", {"LC-06"},
                    "the server sent a request (" + c.method + ") before the client's initialized notification",
                    compact(msg));
  std::string text = compact(reply);
  log(WireEntry::Dir::Out, text);
  try {
    if (transport_) transport_->send(text, Deadline::after_ms(1000));
  } catch (const std::exception& e) {
    event(std::string("could not answer the target's request: ") + e.what());
  }
}

void Session::validate_inbound(const json& msg, const protocol::Classified& c, const std::string& answered_method) {
  (void)c;
  auto v = config_.schemas->validate(msg, validation_version(), protocol::Sender::Server, answered_method);
  if (auto line = unchecked_.note(v.unchecked)) event(*line);
  if (v.valid) return;
  std::string what = "not a valid " + validation_version() + " message";
  if (!v.definition.empty()) what += " (" + v.definition + ")";
  for (std::size_t i = 0; i < v.issues.size() && i < 3; ++i)
    what += (i == 0 ? ": " : "; ") + (v.issues[i].pointer.empty() ? std::string("/") : v.issues[i].pointer) + " " +
            v.issues[i].message;
  monitor_finding("schema", {"MCPSPEC-SCHEMA"}, what, compact(msg));
}

bool Session::nothing_more(Awaiting awaiting) {
  if (!transport_) return false;
  auto reach = transport_->reach();
  bool proved = awaiting == Awaiting::Answers ? reach != transport::Reach::Anything : reach == transport::Reach::Nothing;
  if (!proved) return false;
  // The transport queued everything before it narrowed; read it now, without waiting (bounded).
  for (int i = 0; i < 10000 && pump_once(Deadline::after_ms(0)); ++i) {
  }
  ended_early_ = awaiting == Awaiting::Answers
                     ? "every stream that could carry an answer has ended, so no answer can still arrive"
                     : "no stream from the target is open, so no message can still arrive";
  event("wait ended early: " + ended_early_ + " (" + transport_->name() + ")");
  return true;
}

std::optional<InboundMessage> Session::take(const std::function<bool(const InboundMessage&)>& select,
                                            Deadline deadline, Awaiting awaiting) {
  ended_early_.clear();
  bool proved = false;
  for (;;) {
    for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
      if (select(*it)) {
        InboundMessage m = std::move(*it);
        inbox_.erase(it);
        return m;
      }
    }
    if (gone_) {
      // The output is closed: nothing more can arrive. Wait briefly for the exit status so the
      // report can say how the target ended.
      auto brief = Deadline::after_ms(200).earliest(deadline);
      while (!exit_ && !brief.passed()) pump_once(brief);
      return std::nullopt;
    }
    if (proved || deadline.passed()) return std::nullopt;
    if (nothing_more(awaiting)) {
      proved = true;  // one more look at the inbox, which now holds everything that came
      continue;
    }
    pump_once(deadline);
  }
}

void Session::wait_for(Deadline deadline, Awaiting awaiting) {
  ended_early_.clear();
  while (!deadline.passed()) {
    if (gone_ || nothing_more(awaiting)) break;
    pump_once(deadline);
  }
  wait_until(Deadline::after_ms(0));  // what is queued counts
}

void Session::wait_until(Deadline deadline) {
  while (!deadline.passed()) {
    if (gone_ && (exit_ || !transport_)) {
      // Nothing can arrive any more; let the time pass without spinning.
      struct timespec ts{0, 5'000'000};
      nanosleep(&ts, nullptr);
      continue;
    }
    pump_once(deadline);
  }
  // What has already arrived counts even when the deadline was "now" (collect, the final alive
  // check): the transport does not read at a passed deadline, so read it here without waiting.
  // Bounded, so a target that floods its output cannot hold the harness.
  for (int i = 0; i < 10000 && pump_once(Deadline::after_ms(1)); ++i) {
  }
}

void Session::consume(std::size_t seq) {
  inbox_.erase(std::remove_if(inbox_.begin(), inbox_.end(), [&](const InboundMessage& m) { return m.seq == seq; }),
               inbox_.end());
}

std::optional<transport::ExitStatus> Session::wait_exit(Deadline deadline) {
  while (!exit_) {
    if (!pump_once(deadline) && deadline.passed()) break;
    if (!exit_ && transport_) {
      if (auto st = transport_->exit_status()) {
        // stdout may still be held open by a grandchild; the leader's exit is what we wait for.
        exit_ = st;
        gone_ = true;
        gone_reason_ = "the target ended (" + st->text() + ")";
        event("target ended: " + st->text());
      }
    }
  }
  return exit_;
}

}  // namespace mcpspec::scenario
