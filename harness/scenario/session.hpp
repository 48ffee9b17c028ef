#pragma once
// A server-role scenario's conversation: the harness plays the client, the target is a server. On
// top of what every conversation does (conversation.hpp) it tracks the harness's requests (for
// the id, progress and response monitors), what the server declared in its initialize answer and
// the version it negotiated, answers the server's own requests as a client must, and knows how a
// server ends (its output closes, its process exits) and can be restarted.
#include "harness/scenario/conversation.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace mcpspec::scenario {

class Session : public Conversation {
 public:
  Session(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started);

  // Starts (or, for restart, replaces) the transport. Throws transport::TransportError.
  void attach(std::unique_ptr<transport::Transport> t);

  // Numbers, counting up from 1.
  nlohmann::json next_request_id() override;

  bool target_gone() const { return gone_; }
  std::string gone_reason() const { return gone_reason_; }

  const std::string& negotiated() const { return negotiated_; }
  const nlohmann::json& server_capabilities() const { return server_caps_; }
  const std::string& validation_version() const override;

 protected:
  void note_outbound(const protocol::Classified& c, const nlohmann::json& message, bool deliberately_invalid) override;
  void note_unreadable_sent() override { ++unreadable_sent_; }
  void monitor_request(const nlohmann::json& msg, const protocol::Classified& c) override;
  void monitor_notification(const nlohmann::json& msg, const protocol::Classified& c) override;
  void monitor_response(const nlohmann::json& msg, const protocol::Classified& c, std::string& answered_method) override;
  void framing_finding(const std::string& text) override;
  std::vector<std::string> oversize_requirements() const override { return {"MCPSPEC-ALIVE"}; }
  void on_closed(const std::string& text) override;
  void on_exited(const std::string& text) override;
  bool target_done() const override { return gone_; }

 private:
  struct Outstanding {
    std::string method;
    std::optional<std::string> progress_token;  // id_key of the token
    bool answered = false;
  };
  struct ProgressState {
    std::string request_key;
    std::optional<double> last;
  };

  std::map<std::string, Outstanding> requests_;       // id_key -> request we sent
  std::map<std::string, ProgressState> progress_;     // token key -> state
  std::set<std::string> server_request_ids_;          // ids of the server's own requests, this session
  long long next_id_ = 1;
  int unreadable_sent_ = 0;                           // malformed frames sent; each may get an id-less error
  std::string negotiated_;
  nlohmann::json server_caps_ = nullptr;
  nlohmann::json client_caps_ = nlohmann::json::object();
  bool initialized_sent_ = false;
  bool gone_ = false;
  std::string gone_reason_;
};

}  // namespace mcpspec::scenario
