#pragma once
// A server-role scenario's conversation: the harness plays the client, the target is a server. On
// top of what every conversation does (conversation.hpp: the monitors follow the handshake, ids,
// progress and capabilities) it numbers the harness's requests, answers the server's own requests
// as a client must, and knows how a server ends (its output closes, its process exits) and can be
// restarted.
#include "harness/scenario/conversation.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>

namespace mcpspec::scenario {

// How the wire log says the target's process ended (then its exit status): what the suite looks
// for to tell a target that never came up (run/startup_failure.hpp).
inline constexpr const char* kTargetEndedEvent = "target ended: ";

class Session : public Conversation {
 public:
  Session(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started);

  // Starts (or, for restart, replaces) the transport. Throws transport::TransportError.
  void attach(std::unique_ptr<transport::Transport> t);

  // Numbers, counting up from 1.
  nlohmann::json next_request_id() override;

  bool target_gone() const { return gone_; }
  std::string gone_reason() const { return gone_reason_; }

  const std::string& negotiated() const { return ledger().negotiated; }
  const nlohmann::json& server_capabilities() const { return ledger().server_caps; }

 protected:
  void on_peer_request(const nlohmann::json& msg, const protocol::Classified& c) override;
  // At a modern version (2026-07-28 and later) every request carries the per-request _meta the
  // handshake used to carry: the version, no client capabilities, mcpspec's identity.
  nlohmann::json outgoing(const nlohmann::json& message) const override;
  void on_closed(const std::string& text) override;
  void on_exited(const std::string& text) override;
  bool target_done() const override { return gone_; }

 private:
  long long next_id_ = 1;
  std::map<std::string, std::size_t> answered_;  // target requests answered so far, per method
  bool gone_ = false;
  std::string gone_reason_;
};

}  // namespace mcpspec::scenario
