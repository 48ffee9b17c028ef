#pragma once
// A client-role scenario's conversation: the harness plays the server, the target is a client. On
// top of what every conversation does (conversation.hpp) it follows the client's lifecycle (its
// first request, initialize, initialized), its request ids and progress tokens, the capabilities
// each side declared, and the client's reconnections (a restarted server is a new MCP session).
#include "harness/protocol/message.hpp"
#include "harness/transport/client_carrier.hpp"
#include "harness/scenario/model.hpp"
#include "harness/results/result.hpp"
#include "harness/scenario/conversation.hpp"

#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace mcpspec::scenario {

class ClientSession : public Conversation {
 public:
  ClientSession(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started);

  // Starts the client. Throws transport::TransportError.
  void attach(std::unique_ptr<transport::ClientCarrier> target);
  transport::ClientCarrier* target() { return target_; }
  const transport::ClientCarrier* target() const { return target_; }

  // Strings ("mcpspec-N"), so they can never be confused with the client's own numbering.
  nlohmann::json next_request_id() override;

  // Waits until the server connection is closed (by the client) or the deadline.
  bool wait_disconnect(Deadline deadline);
  bool client_exited() const { return exit_.has_value(); }
  std::optional<transport::ExitStatus> exit() const { return exit_; }
  bool disconnected() const { return disconnected_; }
  // The last thing the bridge said about how the server side ended ("the client closed stdin", ...).
  const std::string& last_bridge_note() const { return last_bridge_note_; }
  bool heard_from_client() const { return heard_from_target(); }

  // Protocol state of the current server connection.
  const std::string& validation_version() const override;
  const nlohmann::json& client_capabilities() const { return client_caps_; }

 protected:
  void note_outbound(const protocol::Classified& c, const nlohmann::json& message, bool deliberately_invalid) override;
  std::string method_answered_by_us(const protocol::Classified& c) const override;
  void monitor_request(const nlohmann::json& msg, const protocol::Classified& c) override;
  void monitor_notification(const nlohmann::json& msg, const protocol::Classified& c) override;
  void monitor_response(const nlohmann::json& msg, const protocol::Classified& c, std::string& answered_method) override;
  void framing_finding(const std::string& text) override;
  std::vector<std::string> oversize_requirements() const override { return {"STDIO-04"}; }
  void before_event() override;
  void on_stderr(const std::string& text) override;
  void on_closed(const std::string& text) override;
  void on_exited(const std::string& text) override;
  bool target_done() const override { return exit_.has_value(); }

 private:
  void on_new_connection();
  void note_outbound_response(const protocol::Classified& c, const nlohmann::json& message);

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

  transport::ClientCarrier* target_ = nullptr;  // the transport the conversation owns, as a client carrier
  int seen_connections_ = 0;
  // Per server connection (a restarted server is a new MCP session).
  std::map<std::string, ClientRequest> client_requests_;  // id_key -> request the client sent
  std::map<std::string, OurRequest> our_requests_;        // id_key -> request the harness sent
  std::map<std::string, std::optional<double>> progress_from_client_;  // our tokens -> last value
  long long next_id_ = 1;
  bool first_request_seen_ = false, init_answered_ = false, initialized_seen_ = false;
  std::string init_id_key_;
  std::string proposed_, negotiated_;
  nlohmann::json client_caps_ = nullptr;  // what the client declared in initialize (null before)
  nlohmann::json declared_ = nullptr;     // capabilities the harness declared in its initialize result
  bool disconnected_ = false;
  std::string last_bridge_note_;
};

}  // namespace mcpspec::scenario
