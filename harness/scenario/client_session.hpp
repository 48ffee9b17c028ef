#pragma once
// One client-role scenario's connection, seen from the harness playing the server: it sends the
// harness's messages, keeps the inbox of what the client sent and the wire log, and runs the
// client-role monitors on every inbound message (lifecycle order, ids, capabilities the harness did
// not declare, cancellation and progress rules, schema of the client's messages).
#include "harness/protocol/message.hpp"
#include "harness/scenario/client_target.hpp"
#include "harness/scenario/model.hpp"
#include "harness/scenario/result.hpp"
#include "harness/scenario/session.hpp"

#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace mcpspec::scenario {

class ClientSession {
 public:
  ClientSession(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started);
  ~ClientSession();

  // Starts the client. Throws transport::TransportError.
  void attach(std::unique_ptr<ClientTarget> target);
  ClientTarget* target() { return target_.get(); }
  const ClientTarget* target() const { return target_.get(); }

  // Sends a message to the client. An invalid message throws ScenarioBug unless deliberate.
  void send(const nlohmann::json& message, bool deliberately_invalid, Deadline deadline);
  void send_raw(const std::string& bytes, Deadline deadline);
  nlohmann::json next_request_id();

  std::optional<InboundMessage> take(const std::function<bool(const InboundMessage&)>& select, Deadline deadline);
  void wait_until(Deadline deadline);
  const std::deque<InboundMessage>& inbox() const { return inbox_; }
  void consume(std::size_t seq);
  std::size_t last_send_seq() const { return last_send_seq_; }
  double now_ms() const { return ms_since(started_); }

  // Waits until the server connection is closed (by the client) or the deadline.
  bool wait_disconnect(Deadline deadline);
  std::optional<transport::ExitStatus> wait_exit(Deadline deadline);
  bool client_exited() const { return exit_.has_value(); }
  std::optional<transport::ExitStatus> exit() const { return exit_; }
  bool disconnected() const { return disconnected_; }
  // The last thing the bridge said about how the server side ended ("the client closed stdin", ...).
  const std::string& last_bridge_note() const { return last_bridge_note_; }
  bool heard_from_client() const { return heard_; }

  void add_finding(Finding f);
  void event(const std::string& text);

  // Protocol state of the current server connection.
  const std::string& validation_version() const;
  const nlohmann::json& client_capabilities() const { return client_caps_; }
  // Inbound messages the schema monitor could not check (see UncheckedMessages).
  const UncheckedMessages& unchecked() const { return unchecked_; }

 private:
  void log(WireEntry::Dir dir, const std::string& text);
  bool pump_once(Deadline deadline);
  void on_new_connection();
  void on_frame(const std::string& text);
  void on_message(nlohmann::json msg);
  void monitor_request(const nlohmann::json& msg, const protocol::Classified& c);
  void monitor_notification(const nlohmann::json& msg, const protocol::Classified& c);
  void monitor_response(const nlohmann::json& msg, const protocol::Classified& c, std::string& answered_method);
  void note_outbound_response(const protocol::Classified& c, const nlohmann::json& message);
  void monitor_finding(const std::string& monitor, std::vector<std::string> reqs, const std::string& message,
                       const std::string& received = "");

  struct ClientRequest {
    std::string method;
    std::optional<std::string> progress_token;
    bool answered = false;
  };
  struct OurRequest {
    std::string method;
    bool answered = false;
    std::optional<std::string> progress_token;
  };

  const Scenario& scenario_;
  SessionConfig config_;
  ScenarioResult& result_;
  Clock::time_point started_;
  std::unique_ptr<ClientTarget> target_;
  std::deque<InboundMessage> inbox_;
  std::size_t seq_ = 0, last_send_seq_ = 0;
  int seen_connections_ = 0;
  // Per server connection (a restarted server is a new MCP session).
  std::map<std::string, ClientRequest> client_requests_;  // id_key -> request the client sent
  std::map<std::string, OurRequest> our_requests_;        // id_key -> request the harness sent
  std::map<std::string, std::optional<double>> progress_from_client_;  // our tokens -> last value
  std::set<std::string> used_ids_;
  long long next_id_ = 1;
  bool first_request_seen_ = false, init_answered_ = false, initialized_seen_ = false;
  std::string init_id_key_;
  std::string proposed_, negotiated_;
  nlohmann::json client_caps_ = nlohmann::json::object();
  nlohmann::json declared_ = nullptr;  // capabilities the harness declared in its initialize result
  bool disconnected_ = false, heard_ = false, wire_truncated_ = false;
  std::optional<transport::ExitStatus> exit_;
  std::string last_bridge_note_;
  std::set<std::string> reported_;
  UncheckedMessages unchecked_;
};

}  // namespace mcpspec::scenario
