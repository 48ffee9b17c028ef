#include "harness/scenario/client_session.hpp"

#include "harness/monitor/modern_requests.hpp"
#include "harness/protocol/era.hpp"
#include "harness/protocol/peer_json.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/util/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

namespace mcpspec::scenario {

using nlohmann::json;
using protocol::Kind;

ClientSession::ClientSession(const Scenario& scenario, SessionConfig config, ScenarioResult& result,
                             Clock::time_point started)
    : Conversation(scenario, std::move(config), result, started, protocol::Sender::Client) {}

void ClientSession::attach(std::unique_ptr<transport::ClientCarrier> t) {
  target_ = t.get();
  adopt(std::move(t));
}

json ClientSession::next_request_id() {
  for (;;) {
    json id = "mcpspec-" + std::to_string(next_id_++);
    if (!used_ids().count(protocol::id_key(id))) return id;
  }
}

void ClientSession::before_send(const protocol::Classified& c) {
  // Whatever the client sent before this response must be judged as sent before it (the lifecycle
  // monitor cares about order): read what has already arrived first, without waiting.
  if ((c.kind == Kind::Result || c.kind == Kind::Error) && !answering_at_once_) drain(1000);
}

void ClientSession::on_peer_request(const json& msg, const protocol::Classified& c) {
  if (serving_.versions.empty() || c.method == "initialize") return;
  auto version = monitor::modern_version_of(msg);
  if (!version) return;
  json reply = {{"jsonrpc", "2.0"}, {"id", *c.id}};
  if (std::find(serving_.versions.begin(), serving_.versions.end(), *version) == serving_.versions.end()) {
    reply["error"] = {{"code", protocol::modern_error::kUnsupportedProtocolVersion},
                      {"message", "Unsupported protocol version"},
                      {"data", {{"supported", serving_.versions}, {"requested", *version}}}};
    event("served at once: " + c.method + " asks for version " + *version + ", which this server does not serve (-32022)");
  } else if (c.method == "server/discover") {
    reply["result"] = serving_.discover_result;
    event("served at once: server/discover");
  } else {
    return;
  }
  answering_at_once_ = true;
  try {
    send(reply, false, Deadline::after_ms(5000));
  } catch (...) {
    answering_at_once_ = false;
    throw;
  }
  answering_at_once_ = false;
  answered_by_role_ = true;
}

void ClientSession::on_new_connection() {
  seen_connections_ = target_->connections();
  disconnected_ = false;
  if (seen_connections_ > 1) {
    // The client started the server again: a new MCP session with its own lifecycle and ids.
    event(fmt::format("the client started the server again (connection {})", seen_connections_));
    new_mcp_session();
  } else {
    event("the client started the server (connected to the bridge)");
  }
}

void ClientSession::before_event() {
  if (target_ && target_->connections() != seen_connections_) on_new_connection();
}

void ClientSession::on_stderr(const std::string& text) {
  if (text.rfind("bridge[", 0) == 0) last_bridge_note_ = text;
  log(WireEntry::Dir::Stderr, text);
}

void ClientSession::on_closed(const std::string& text) {
  event(text);
  disconnected_ = true;
}

void ClientSession::on_exited(const std::string& text) { event("client ended: " + text); }

bool ClientSession::wait_disconnect(Deadline deadline) {
  while (!disconnected_ && !deadline.passed()) {
    pump_once(deadline);
    if (exit_ && !target_->connected()) break;
  }
  return disconnected_ || (exit_ && !target_->connected());
}

}  // namespace mcpspec::scenario
