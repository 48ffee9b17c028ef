#include "harness/scenario/conversation.hpp"

#include "harness/monitor/envelope.hpp"
#include "harness/monitor/framing.hpp"
#include "harness/monitor/schema_monitor.hpp"
#include "harness/protocol/era.hpp"
#include "harness/protocol/json_depth.hpp"
#include "harness/protocol/peer_json.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/util/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

namespace mcpspec::scenario {

using nlohmann::json;
using protocol::Kind;

Conversation::Conversation(const Scenario& scenario, SessionConfig config, ScenarioResult& result,
                           Clock::time_point started, protocol::Sender peer)
    : scenario_(scenario),
      config_(std::move(config)),
      result_(result),
      started_(started),
      peer_(peer),
      monitors_(peer, [this](std::string_view v) { return config_.schemas && config_.schemas->has_version(v); }),
      wire_log_(config_.wire) {}

const std::string& Conversation::validation_version() const {
  return monitors_.ledger().validation_version(config_.proposed_version);
}

Conversation::~Conversation() {
  if (transport_) transport_->stop();
}

void Conversation::adopt(std::unique_ptr<transport::Transport> t) {
  if (transport_) transport_->stop();
  transport_ = std::move(t);
  heard_ = false;
  unreadable_output_ = false;
  exit_.reset();
  inbox_.clear();
  transport_->start();
  event(transport_->describe());
}

void Conversation::log(WireEntry::Dir dir, const std::string& text) {
  wire_log_.append(result_.wire, ms_since(started_), dir, text);
}

void Conversation::event(const std::string& text) { log(WireEntry::Dir::Event, text); }

void Conversation::add_finding(Finding f) {
  if (result_.findings.size() >= config_.max_findings) return;
  result_.findings.push_back(std::move(f));
  if (result_.findings.size() == config_.max_findings)
    result_.findings.push_back({{"MCPSPEC-ALIVE"}, Level::Info, "further findings omitted", -1, "", "", ""});
}

void Conversation::monitor_finding(const std::string& monitor, std::vector<std::string> reqs,
                                   const std::string& message, const std::string& received) {
  if (!scenario_.monitor_on(monitor)) return;
  if (!reported_.insert(monitor + "|" + message).second) return;
  Level level = config_.catalog ? config_.catalog->strictest_level(validation_version(), reqs)
                                : (reqs.empty() ? Level::Info : Level::Must);
  add_finding({std::move(reqs), level, "[" + monitor + "] " + message, -1, "", received, ""});
}

void Conversation::report(const monitor::Finding& f, const std::string& received) {
  monitor_finding(f.monitor, f.requirements, f.message, received);
}

void Conversation::send(const json& written, bool deliberately_invalid, Deadline deadline, bool as_written) {
  const json message = as_written ? written : outgoing(written);
  auto c = protocol::classify(message);
  if (!deliberately_invalid) {
    if (!c.problems.empty())
      throw ScenarioBug("the scenario sends an invalid message (" + c.problems.front() +
                        "); mark the step \"invalid\": true if that is deliberate: " + compact(message));
    if (scenario_.validate == ValidateMode::Full && config_.schemas) {
      auto ours = peer_ == protocol::Sender::Server ? protocol::Sender::Client : protocol::Sender::Server;
      auto v = config_.schemas->validate(message, validation_version(), ours, monitors_.method_answered_by_us(c));
      if (!v.valid) {
        std::string why = v.issues.empty() ? "" : v.issues.front().pointer + ": " + v.issues.front().message;
        throw ScenarioBug("the scenario sends a message that is not valid " + validation_version() + " (" + why +
                          "); mark the step \"invalid\": true if that is deliberate: " + compact(message));
      }
    }
  }
  before_send(c);
  if (c.id) used_ids_.insert(protocol::id_key(*c.id));
  monitors_.outbound(message, c, deliberately_invalid);
  std::string text = compact(message);
  log(WireEntry::Dir::Out, text);
  last_send_seq_ = seq_;
  if (!transport_) throw transport::TransportError("no target connection");
  transport_->send(text, deadline);
}

void Conversation::send_raw(const std::string& bytes, Deadline deadline) {
  monitors_.unreadable_sent();
  log(WireEntry::Dir::Out, bytes);
  last_send_seq_ = seq_;
  if (!transport_) throw transport::TransportError("no target connection");
  transport_->send_raw(bytes, deadline);
}

bool Conversation::pump_once(Deadline deadline) {
  if (!transport_) return false;
  auto e = transport_->receive(deadline);
  before_event();
  // Rules only the transport sees (headers, content types) are reported like a monitor's.
  for (const auto& v : transport_->take_violations())
    monitor_finding(v.value("monitor", std::string("framing")), v["requirements"].get<std::vector<std::string>>(),
                    v["message"].get<std::string>());
  using T = transport::Event::Type;
  switch (e.type) {
    case T::Timeout: return false;
    case T::Settled: return true;  // a wake-up: waits ask reach() themselves
    case T::Frame: on_frame(e); return true;
    case T::Rejected:  // the transport noted the status; a body that is a message is judged as one
      if (e.message) on_frame(e);
      else if (e.id_lost) judge_refusal(e.http_status, e.text);
      return true;
    case T::Stderr: on_stderr(e.text); return true;
    case T::Oversize:
      event(e.text);
      monitor_finding("framing", monitor::oversize_requirements(peer_), e.text);
      return true;
    case T::Closed: on_closed(e.text); return true;
    case T::Exited:
      exit_ = e.status;
      on_exited(e.text);
      return true;
  }
  return false;
}

void Conversation::drain(int max_events) {
  for (int i = 0; i < max_events && pump_once(Deadline::after_ms(1)); ++i) {
  }
}

void Conversation::judge_refusal(int http_status, const std::string& body) {
  if (!protocol::is_modern(validation_version())) return;
  const json doc = json::parse(body, nullptr, false);
  if (!doc.is_object() || (doc.contains("id") && !doc["id"].is_null())) return;
  const json code = doc.contains("error") && doc["error"].is_object() ? doc["error"].value("code", json()) : json();
  if (!code.is_number_integer() || !protocol::modern_error::answers_the_request(code.get<long long>())) return;
  monitor_finding("ids", {"BASE-08"},
                  fmt::format("the HTTP {} refusal ({}) of a request whose id was readable carries no id",
                              http_status, code.get<long long>()),
                  body);
}

void Conversation::on_frame(const transport::Event& e) {
  const std::string& text = e.text;
  heard_ = true;
  log(WireEntry::Dir::In, text);
  auto read = protocol::read_peer_json(text);
  switch (read.status) {
    case protocol::PeerJson::Status::Ok: on_message(std::move(read.value)); return;
    case protocol::PeerJson::Status::NotJson:
      report(e.rules.empty() ? monitor::unparsable_frame(text, peer_, read.detail)
                             : monitor::unparsable_message(e.place, e.rules, read.detail),
             text);
      // Messages spread over several lines cannot be read, so waiting for one is waiting for
      // nothing: waits end at once (the framing finding has already failed the scenario).
      if (monitor::is_message_fragment(text) && scenario_.monitor_on("framing")) unreadable_output_ = true;
      return;
    case protocol::PeerJson::Status::TooDeep:
      // Serializing or copying such a value would recurse past the stack (json_depth.hpp).
      event(fmt::format("a message nested deeper than {} levels was not parsed (mcpspec's limit)",
                        protocol::kMaxJsonDepth));
      return;
    case protocol::PeerJson::Status::NumberOutOfRange:
      // Valid JSON syntax with a number beyond a double (1e999): noted, not judged. It used to
      // escape as a harness error of the whole scenario (found by fuzz/targets/message_parser_fuzz.cpp).
      event("a message could not be read: " + read.detail);
      return;
  }
}

void Conversation::on_message(json msg) {
  auto c = protocol::classify(msg);
  if (scenario_.validate != ValidateMode::Off)
    for (const auto& f : monitor::envelope_findings(c)) report(f, compact(msg));
  auto judged = monitors_.inbound(msg, c, validation_version());
  for (const auto& e : judged.events) event(e);
  for (const auto& f : judged.findings) report(f, compact(msg));
  answered_by_role_ = false;
  if (c.kind == Kind::Request && c.id) on_peer_request(msg, c);
  const std::string& answered_method = judged.answered_method;
  // A batch is validated as one (each element against the generic shapes); an invalid envelope
  // has already been reported above.
  bool checkable = c.kind == Kind::Batch ? scenario_.validate != ValidateMode::Off
                                         : c.kind != Kind::Invalid && scenario_.validate == ValidateMode::Full;
  if (checkable && config_.schemas) validate_inbound(msg, answered_method);
  if (answered_by_role_) return;  // answered on the spot: no step waits for it
  inbox_.push_back(InboundMessage{std::move(msg), std::move(c), ++seq_, ms_since(started_)});
  if (inbox_.size() > config_.max_inbox) {
    inbox_.pop_front();
    if (reported_.insert("inbox-overflow").second)
      event(fmt::format("more than {} unconsumed messages: the oldest are dropped", config_.max_inbox));
  }
}

void Conversation::validate_inbound(const json& msg, const std::string& answered_method) {
  auto judged = monitor::judge_schema(*config_.schemas, msg, validation_version(), peer_, answered_method);
  if (auto line = unchecked_.note(judged.unchecked)) event(*line);
  if (judged.finding) report(*judged.finding, compact(msg));
}

bool Conversation::nothing_more(Awaiting awaiting) {
  if (unreadable_output_) {
    ended_early_ = "the target spreads its messages over several lines (STDIO-02), so what it sends cannot be read";
    if (reported_.insert("wait-unreadable").second) event("wait ended early: " + ended_early_);
    return true;
  }
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

bool Conversation::requests_in_flight() const {
  for (const auto& [id, request] : ledger().ours)
    if (!request.answered) return true;
  return false;
}

std::optional<InboundMessage> Conversation::take(const std::function<bool(const InboundMessage&)>& select,
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
    if (target_done()) {
      // Nothing more can arrive. Wait briefly for the exit status so the report can say how the
      // target ended.
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

void Conversation::wait_for(Deadline deadline, Awaiting awaiting) {
  ended_early_.clear();
  while (!deadline.passed()) {
    if (target_done() || nothing_more(awaiting)) break;
    pump_once(deadline);
  }
  wait_until(Deadline::after_ms(0));  // what is queued counts
}

void Conversation::wait_until(Deadline deadline) {
  while (!deadline.passed()) {
    if (target_done() && (exit_ || !transport_)) {
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
  drain(10000);
}

void Conversation::consume(std::size_t seq) {
  inbox_.erase(std::remove_if(inbox_.begin(), inbox_.end(), [&](const InboundMessage& m) { return m.seq == seq; }),
               inbox_.end());
}

std::optional<transport::ExitStatus> Conversation::wait_exit(Deadline deadline) {
  while (!exit_) {
    if (!pump_once(deadline) && deadline.passed()) break;
    if (!exit_ && transport_) {
      if (auto st = transport_->exit_status()) {
        // stdout may still be held open by a grandchild; the leader's exit is what we wait for.
        exit_ = st;
        on_exited(st->text());
      }
    }
  }
  return exit_;
}

}  // namespace mcpspec::scenario
