#pragma once
// A client-role scenario's conversation: the harness plays the server, the target is a client. On
// top of what every conversation does (conversation.hpp: the monitors follow the client's
// lifecycle, ids, progress tokens and the capabilities each side declared) it names the harness's
// requests, follows the client's reconnections (a restarted server is a new MCP session) and knows
// how a client ends.
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
#include <vector>

namespace mcpspec::scenario {

// How the harness serves the stateless era (2026-07-28 and later) to the client: a dual-era
// server. A request whose _meta names a modern version is served statelessly: a version outside
// `versions` gets -32022 with the supported list, server/discover gets `discover_result`, both at
// once and without a step (a client may send them at any time); everything else is the scenario's
// to answer. initialize selects legacy semantics, answered by the scenario's steps as before.
struct ModernServing {
  std::vector<std::string> versions;  // empty: a legacy-only server (the scenario answers everything)
  nlohmann::json discover_result;     // the DiscoverResult for server/discover
};

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

  void serve_modern(ModernServing serving) { serving_ = std::move(serving); }

  // What the client declared in initialize on the current server connection (null before).
  const nlohmann::json& client_capabilities() const { return ledger().client_caps; }

 protected:
  void before_send(const protocol::Classified& c) override;
  void before_event() override;
  void on_stderr(const std::string& text) override;
  void on_closed(const std::string& text) override;
  void on_exited(const std::string& text) override;
  bool target_done() const override { return exit_.has_value(); }
  void on_peer_request(const nlohmann::json& msg, const protocol::Classified& c) override;

 private:
  void on_new_connection();

  transport::ClientCarrier* target_ = nullptr;  // the transport the conversation owns, as a client carrier
  int seen_connections_ = 0;
  long long next_id_ = 1;
  bool disconnected_ = false;
  std::string last_bridge_note_;
  ModernServing serving_;
  bool answering_at_once_ = false;  // sending a reply from inside the read loop: no draining
};

}  // namespace mcpspec::scenario
