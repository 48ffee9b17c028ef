#include "harness/proxy/traffic_judge.hpp"

#include "harness/monitor/envelope.hpp"
#include "harness/monitor/framing.hpp"
#include "harness/monitor/schema_monitor.hpp"
#include "harness/protocol/peer_json.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/util/json_text.hpp"

#include <fmt/format.h>

namespace mcpspec::proxy {

using protocol::Sender;

namespace {

bool known_version(std::string_view v) { return protocol::SchemaRegistry::builtin().has_version(v); }

Sender sender_of(Direction d) { return d == Direction::ClientToServer ? Sender::Client : Sender::Server; }

WireEntry::Dir wire_dir(Direction d) {
  switch (d) {
    case Direction::ClientToServer: return WireEntry::Dir::Out;
    case Direction::ServerToClient: return WireEntry::Dir::In;
    case Direction::Stderr: return WireEntry::Dir::Stderr;
  }
  return WireEntry::Dir::Event;
}

}  // namespace

std::string finding_line(const TrafficFinding& f) {
  return fmt::format("#{} {} {} {}: {}", f.message_index, direction_name(f.dir), level_name(f.finding.level),
                     fmt::join(f.finding.requirements, ","), f.what);
}

TrafficJudge::TrafficJudge() : TrafficJudge(Limits{}) {}

TrafficJudge::TrafficJudge(Limits limits)
    : limits_(limits),
      server_side_(Sender::Server, known_version),
      client_side_(Sender::Client, known_version),
      wire_log_(limits.wire) {}

const std::string& TrafficJudge::version() const {
  // Both ledgers see the same handshake; the server side's holds it as its own answer.
  return server_side_.ledger().validation_version(protocol::latest_version());
}

void TrafficJudge::log(WireEntry::Dir dir, const std::string& text, double t_ms) {
  wire_log_.append(wire_, t_ms, dir, text);
}

void TrafficJudge::event(const std::string& text, double t_ms) { log(WireEntry::Dir::Event, text, t_ms); }

void TrafficJudge::add(std::vector<TrafficFinding>& out, const monitor::Finding& f, Direction dir,
                       const std::string& received) {
  if (!reported_.insert(f.monitor + "|" + f.message).second) return;
  ++findings_seen_;
  Level level = scenario::RequirementCatalog::builtin().strictest_level(version(), f.requirements);
  std::string what = "[" + f.monitor + "] " + f.message;
  std::string who = dir == Direction::ClientToServer ? "client" : "server";
  Finding rf{f.requirements, level, fmt::format("message #{} ({}): {}", index_, who, what), -1, "", received, ""};
  out.push_back({rf, index_, dir, what});
  if (findings_.size() < limits_.max_findings) findings_.push_back(std::move(rf));
}

std::vector<TrafficFinding> TrafficJudge::judge(Direction dir, const std::string& text, double t_ms) {
  std::vector<TrafficFinding> out;
  log(wire_dir(dir), text, t_ms);
  if (dir == Direction::Stderr) return out;
  now_ms_ = t_ms;
  ++index_;
  judge_message(dir, text, out);
  return out;
}

void TrafficJudge::skip(Direction dir, std::size_t bytes, double t_ms) {
  if (dir != Direction::Stderr) ++index_;
  event(fmt::format("a {} line of {} bytes was forwarded but not judged (longer than mcpspec judges)",
                    direction_name(dir), bytes),
        t_ms);
}

void TrafficJudge::judge_message(Direction dir, const std::string& text, std::vector<TrafficFinding>& out) {
  Sender sender = sender_of(dir);
  auto& judges = sender == Sender::Server ? server_side_ : client_side_;
  auto& hears = sender == Sender::Server ? client_side_ : server_side_;
  auto read = protocol::read_peer_json(text);
  if (read.status == protocol::PeerJson::Status::NotJson) {
    add(out, monitor::unparsable_frame(text, sender), dir, text);
    hears.unreadable_sent();
    return;
  }
  if (read.status != protocol::PeerJson::Status::Ok) {
    // Too deep or a number beyond a double: mcpspec cannot hold it, so it is noted, not judged.
    event(fmt::format("message #{} could not be read: {}", index_, read.detail), now_ms_);
    return;
  }
  const auto& msg = read.value;
  auto c = protocol::classify(msg);
  std::string received = compact(msg);
  for (const auto& f : monitor::envelope_findings(c)) add(out, f, dir, received);
  // The version in force before this message: its own handshake answer applies from the next one.
  std::string version = this->version();
  auto judged = judges.inbound(msg, c, version);
  // An invalid message (a null id, a broken envelope) may get an id-less error back: the
  // receiver's monitors count it as the harness counts its own deliberately invalid messages.
  hears.outbound(msg, c, !c.problems.empty());
  for (const auto& f : judged.findings) add(out, f, dir, received);
  bool checkable = c.kind != protocol::Kind::Invalid;
  if (!checkable) return;
  auto schema = monitor::judge_schema(protocol::SchemaRegistry::builtin(), msg, version, sender, judged.answered_method);
  if (schema.finding) add(out, *schema.finding, dir, received);
}

ScenarioResult TrafficJudge::result(const std::string& command, double duration_ms) const {
  ScenarioResult r;
  r.id = "proxy-session";
  r.title = "Traffic through mcpspec proxy: " + command;
  r.file = "";
  r.area = "proxy";
  const auto& l = server_side_.ledger();
  r.protocol = l.proposed;
  r.negotiated = l.negotiated;
  r.role = "server";
  r.transport = "stdio";
  r.findings = findings_;
  if (findings_seen_ > findings_.size())
    r.findings.push_back({{"MCPSPEC-ALIVE"}, Level::Info,
                          fmt::format("{} further findings omitted", findings_seen_ - findings_.size()), -1, "", "", ""});
  r.wire = wire_;
  r.verdict = verdict_from(r.findings);
  r.duration_ms = duration_ms;
  return r;
}

}  // namespace mcpspec::proxy
