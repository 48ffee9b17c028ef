#pragma once
// One scenario's conversation with its target, whichever role the target plays. It owns what both
// roles do the same way: sending (with the check that the harness's own message is valid), reading
// frames from the transport, the wire log, the inbox of unconsumed messages, waits with deadlines
// (ending early when the transport proves nothing more can arrive), the findings and their cap, and
// the checks every inbound message gets: the monitors of harness/monitor/ (framing, envelope,
// schema, and the stateful ones: ids, lifecycle, capabilities, progress, cancellation).
//
// Session (the target is a server) and ClientSession (the target is a client) derive from it and
// hold only what differs: which ids the harness uses, what the harness answers the target's
// requests, and how the target ends.
#include "harness/monitor/monitors.hpp"
#include "harness/protocol/message.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/model.hpp"
#include "harness/results/result.hpp"
#include "harness/results/wire_log.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/transport/transport.hpp"

#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mcpspec::scenario {

class RequirementCatalog;

struct InboundMessage {
  nlohmann::json json;
  protocol::Classified kind;
  std::size_t seq = 0;     // arrival order within the session
  double t_ms = 0;
};

struct SessionConfig {
  std::string proposed_version;                // the version the harness proposes
  const protocol::SchemaRegistry* schemas = nullptr;  // message schemas (ours or the user's)
  const RequirementCatalog* catalog = nullptr;
  std::size_t max_inbox = 10000;               // unconsumed messages kept; older ones are dropped
  // The wire log's bounds. Entries alone did not bound it: a target flooding 4 KiB lines filled
  // 5000 entries (20 MB) per scenario, and every result is held until the reports are written, so
  // a run of a few flooded scenarios went past 300 MB (tests/hostile/): text is bounded too.
  WireLimits wire{};
  std::size_t max_findings = 50;
};

// Thrown by send operations when the harness's own message is invalid (a scenario bug: ERROR).
class ScenarioBug : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a wait waits for, so that it can end as soon as the transport proves none of it can still
// arrive (transport::Reach; only Streamable HTTP can prove anything, elsewhere waits run to the
// deadline). Answers: responses to what was sent (also the id-less errors for unreadable input).
enum class Awaiting { Anything, Answers };

class Conversation {
 public:
  // `peer` is who the target is: it sends what the harness reads, the harness sends as the other.
  Conversation(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started,
               protocol::Sender peer);
  virtual ~Conversation();
  Conversation(const Conversation&) = delete;
  Conversation& operator=(const Conversation&) = delete;

  // Sends a message. Unless `deliberately_invalid`, an invalid message throws ScenarioBug. Unless
  // `as_written`, the role may first complete it (outgoing()).
  void send(const nlohmann::json& message, bool deliberately_invalid, Deadline deadline, bool as_written = false);
  void send_raw(const std::string& bytes, Deadline deadline);
  // A fresh request id not used before in this session (each role has its own kind of id).
  virtual nlohmann::json next_request_id() = 0;

  // Takes the first unconsumed message `select` accepts, waiting until the deadline, or until no
  // message of the `awaiting` kind can arrive any more (then nullopt and ended_early() says why).
  std::optional<InboundMessage> take(const std::function<bool(const InboundMessage&)>& select, Deadline deadline,
                                     Awaiting awaiting = Awaiting::Anything);
  // Reads everything that arrives until the deadline (messages go to the inbox). Never ends early.
  void wait_until(Deadline deadline);
  // Like wait_until, but ends once no message of the `awaiting` kind can arrive any more.
  void wait_for(Deadline deadline, Awaiting awaiting);
  // True while some request the harness sent has had no response yet: what accompanies a request
  // in flight (progress, log messages) can still come.
  bool requests_in_flight() const;
  // Why the last take()/wait_for() ended before its deadline ("" when it did not).
  const std::string& ended_early() const { return ended_early_; }
  // Unconsumed messages, oldest first.
  const std::deque<InboundMessage>& inbox() const { return inbox_; }
  void consume(std::size_t seq);
  std::size_t last_send_seq() const { return last_send_seq_; }
  double now_ms() const { return ms_since(started_); }

  // The transport to the target (nullptr before attach): signals, stdin, HTTP details.
  transport::Transport* transport() const { return transport_.get(); }

  // Waits for the target process to end. Returns its status, or nullopt at the deadline.
  std::optional<transport::ExitStatus> wait_exit(Deadline deadline);
  // True once the target has written anything (it has started up).
  bool heard_from_target() const { return heard_; }

  // An HTTP error status refusing a request whose id was readable, with `body` as the answer: at
  // 2026-07-28 a JSON-RPC error that answers the request itself (protocol::modern_error::
  // answers_the_request) carries that id (BASE-08). Earlier versions, and HTTP-level refusals
  // (403 for a foreign Origin, -32001 for an unknown session), may give an id-less explanation.
  void judge_refusal(int http_status, const std::string& body);

  // Findings; past the cap one "further findings omitted" marker stands for the rest.
  void add_finding(Finding f);
  void event(const std::string& text);  // a '#' line in the wire log

  // The version messages are validated against: the negotiated one, else the one the initialize
  // request proposed, else the one the harness proposes.
  const std::string& validation_version() const;
  // Inbound messages the schema monitor could not check (see UncheckedMessages).
  const UncheckedMessages& unchecked() const { return unchecked_; }

 protected:
  // Starts `t` as the conversation's transport (stopping any earlier one) and logs what it is.
  void adopt(std::unique_ptr<transport::Transport> t);

  void log(WireEntry::Dir dir, const std::string& text);
  void monitor_finding(const std::string& monitor, std::vector<std::string> reqs, const std::string& message,
                       const std::string& received = "");
  void report(const monitor::Finding& f, const std::string& received);
  // What the monitors know of the current MCP session (handshake, requests both ways).
  const monitor::Ledger& ledger() const { return monitors_.ledger(); }
  // A new MCP session begins (restart, reconnection): the monitors forget the old one.
  void new_mcp_session() { monitors_.reset(); }
  // Pulls one transport event (waiting until the deadline); false when nothing came.
  bool pump_once(Deadline deadline);
  // Reads what has already arrived, without waiting (bounded, so a flood cannot hold the harness).
  void drain(int max_events);
  // Ids the harness has used in this session (requests, and deliberately odd ones).
  std::set<std::string>& used_ids() { return used_ids_; }
  std::optional<transport::ExitStatus> exit_;  // set once the target process has ended

  // --- What each role decides ---
  // Before a message goes out (before the monitors record it).
  virtual void before_send(const protocol::Classified&) {}
  // What the role adds to a message the scenario sends (a client's per-request _meta at a modern
  // version); the message as it is by default.
  virtual nlohmann::json outgoing(const nlohmann::json& message) const { return message; }
  // A request from the target, after the monitors judged it (the role answers what it must).
  virtual void on_peer_request(const nlohmann::json&, const protocol::Classified&) {}
  // Set by on_peer_request when the role answered the request itself: it stays out of the inbox.
  bool answered_by_role_ = false;
  // Called before each transport event is handled (a client that reconnected starts a new session).
  virtual void before_event() {}
  virtual void on_stderr(const std::string& text) { log(WireEntry::Dir::Stderr, text); }
  // The target's output stream closed / the target process ended (exit_ is set before on_exited).
  virtual void on_closed(const std::string& text) = 0;
  virtual void on_exited(const std::string& text) = 0;
  // True when nothing more can come from the target (its output closed or it ended).
  virtual bool target_done() const = 0;

  const Scenario& scenario_;
  SessionConfig config_;
  ScenarioResult& result_;
  Clock::time_point started_;

 private:
  // True when the transport proves nothing of the `awaiting` kind can still arrive; everything
  // already queued has then been read into the inbox.
  bool nothing_more(Awaiting awaiting);
  void on_frame(const transport::Event& e);
  void on_message(nlohmann::json msg);
  void validate_inbound(const nlohmann::json& msg, const std::string& answered_method);

  protocol::Sender peer_;
  monitor::Monitors monitors_;
  std::unique_ptr<transport::Transport> transport_;
  std::deque<InboundMessage> inbox_;
  std::size_t seq_ = 0, last_send_seq_ = 0;
  std::set<std::string> used_ids_;
  std::set<std::string> reported_;  // monitor findings already reported (dedup)
  WireLogWriter wire_log_;
  bool heard_ = false;
  bool unreadable_output_ = false;  // the target spread a message over several lines
  std::string ended_early_;
  UncheckedMessages unchecked_;
};

}  // namespace mcpspec::scenario
