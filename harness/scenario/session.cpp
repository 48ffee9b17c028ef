#include "harness/scenario/session.hpp"

#include "harness/protocol/era.hpp"
#include "harness/protocol/modern_stamp.hpp"
#include "harness/util/json_text.hpp"

#include <algorithm>

namespace mcpspec::scenario {

using nlohmann::json;

Session::Session(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started)
    : Conversation(scenario, std::move(config), result, started, protocol::Sender::Server) {}

void Session::attach(std::unique_ptr<transport::Transport> t) {
  // A restarted server is a new MCP session: nothing of the old one carries over.
  gone_ = false;
  gone_reason_.clear();
  new_mcp_session();
  adopt(std::move(t));
}

json Session::next_request_id() {
  while (used_ids().count(protocol::id_key(json(next_id_)))) ++next_id_;
  return json(next_id_++);
}

json Session::outgoing(const json& message) const {
  if (!protocol::is_modern(config_.proposed_version)) return message;
  static const json identity = {{"name", "mcpspec"}, {"version", MCPSPEC_VERSION}};
  return protocol::with_modern_meta(message, config_.proposed_version, json::object(), identity);
}

void Session::on_closed(const std::string& text) {
  event(text);
  gone_ = true;
  gone_reason_ = "the target closed its output";
}

void Session::on_exited(const std::string& text) {
  event(kTargetEndedEvent + text);
  gone_ = true;
  gone_reason_ = "the target ended (" + text + ")";
}

void Session::on_peer_request(const json&, const protocol::Classified& c) {
  // The harness is the client here: answer what a client must answer so the session stays healthy.
  json reply = {{"jsonrpc", "2.0"}, {"id", *c.id}};
  const auto given = scenario_.answers.find(c.method);
  if (given != scenario_.answers.end() && given->is_array() && !given->empty()) {
    const std::size_t n = answered_[c.method]++;
    reply.update(given->at(std::min(n, given->size() - 1)));  // the scenario's answer: result or error
  } else if (c.method == "ping") {
    reply["result"] = json::object();
  } else {
    reply["error"] = {{"code", -32601}, {"message", "mcpspec does not offer " + c.method}};
  }
  std::string text = compact(reply);
  log(WireEntry::Dir::Out, text);
  try {
    if (transport()) transport()->send(text, Deadline::after_ms(1000));
  } catch (const std::exception& e) {
    event(std::string("could not answer the target's request: ") + e.what());
  }
}

}  // namespace mcpspec::scenario
