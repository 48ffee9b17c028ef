#pragma once
// One live connection to the target during a scenario, seen from the harness's side: it sends and
// receives frames, keeps the inbox of unconsumed messages and the wire log, and runs the monitors
// (checks that apply to every message whatever the steps say).
#include "harness/protocol/message.hpp"
#include "harness/scenario/model.hpp"
#include "harness/scenario/result.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/transport/transport.hpp"

#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace mcpspec::protocol {
class SchemaRegistry;
}

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
  std::size_t max_wire_entries = 5000;
  std::size_t max_wire_text = 8192;
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

class Session {
 public:
  Session(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started);
  ~Session();

  // Starts (or, for restart, replaces) the transport. Throws transport::TransportError.
  void attach(std::unique_ptr<transport::Transport> t);
  transport::Transport* transport() { return transport_.get(); }

  // Sends a message. Requests are tracked (method, progress token) for the monitors. Unless
  // `deliberately_invalid`, an invalid message throws ScenarioBug.
  void send(const nlohmann::json& message, bool deliberately_invalid, Deadline deadline);
  void send_raw(const std::string& bytes, Deadline deadline);
  // A fresh request id not used before in this session.
  nlohmann::json next_request_id();

  // Takes the first unconsumed message `select` accepts, waiting until the deadline, or until no
  // message of the `awaiting` kind can arrive any more (then nullopt and ended_early() says why).
  std::optional<InboundMessage> take(const std::function<bool(const InboundMessage&)>& select, Deadline deadline,
                                     Awaiting awaiting = Awaiting::Anything);
  // Reads everything that arrives until the deadline (messages go to the inbox). Never ends early.
  void wait_until(Deadline deadline);
  // Like wait_until, but ends once no message of the `awaiting` kind can arrive any more.
  void wait_for(Deadline deadline, Awaiting awaiting);
  // Why the last take()/wait_for() ended before its deadline ("" when it did not).
  const std::string& ended_early() const { return ended_early_; }
  // Unconsumed messages, oldest first.
  const std::deque<InboundMessage>& inbox() const { return inbox_; }
  void consume(std::size_t seq);
  std::size_t last_send_seq() const { return last_send_seq_; }

  // Waits for the target process to end. Returns its status, or nullopt at the deadline.
  std::optional<transport::ExitStatus> wait_exit(Deadline deadline);
  bool target_gone() const { return gone_; }
  // True once the target has written anything to its output (it has started up).
  bool heard_from_target() const { return heard_; }
  std::string gone_reason() const { return gone_reason_; }

  // Findings: `step` is the index in the scenario (or -1).
  void add_finding(Finding f);
  void event(const std::string& text);  // a '#' line in the wire log

  const std::string& negotiated() const { return negotiated_; }
  const nlohmann::json& server_capabilities() const { return server_caps_; }
  const std::string& validation_version() const;
  // Inbound messages the schema monitor could not check (see UncheckedMessages).
  const UncheckedMessages& unchecked() const { return unchecked_; }

 private:
  void log(WireEntry::Dir dir, const std::string& text);
  // Pulls one transport event (waiting until the deadline); false when nothing came.
  bool pump_once(Deadline deadline);
  // True when the transport proves nothing of the `awaiting` kind can still arrive; everything
  // already queued has then been read into the inbox.
  bool nothing_more(Awaiting awaiting);
  void on_frame(const std::string& text);
  void on_message(nlohmann::json msg);
  void monitor_response(const nlohmann::json& msg, const protocol::Classified& c, std::string& answered_method);
  void monitor_notification(const nlohmann::json& msg, const protocol::Classified& c);
  void monitor_request(const nlohmann::json& msg, const protocol::Classified& c);
  void validate_inbound(const nlohmann::json& msg, const protocol::Classified& c, const std::string& answered_method);
  void monitor_finding(const std::string& monitor, std::vector<std::string> reqs, const std::string& message,
                       const std::string& received = "");

  struct Outstanding {
    std::string method;
    std::optional<std::string> progress_token;  // id_key of the token
    bool answered = false;
  };
  struct ProgressState {
    std::string request_key;
    std::optional<double> last;
  };

  const Scenario& scenario_;
  SessionConfig config_;
  ScenarioResult& result_;
  Clock::time_point started_;
  std::unique_ptr<transport::Transport> transport_;
  std::deque<InboundMessage> inbox_;
  std::size_t seq_ = 0, last_send_seq_ = 0;
  std::map<std::string, Outstanding> requests_;       // id_key -> request we sent
  std::map<std::string, ProgressState> progress_;     // token key -> state
  std::set<std::string> used_ids_;
  long long next_id_ = 1;
  int unreadable_sent_ = 0;                           // malformed frames sent; each may get an id-less error
  std::string negotiated_;
  nlohmann::json server_caps_ = nullptr;
  nlohmann::json client_caps_ = nlohmann::json::object();
  bool initialized_sent_ = false;
  bool gone_ = false;
  std::string gone_reason_;
  std::optional<transport::ExitStatus> exit_;
  std::set<std::string> reported_;                    // monitor findings already reported (dedup)
  bool wire_truncated_ = false;
  bool heard_ = false;
  std::string ended_early_;
  UncheckedMessages unchecked_;
};

}  // namespace mcpspec::scenario
