#include "harness/monitor/cancellation.hpp"

#include "harness/util/json_text.hpp"

namespace mcpspec::monitor {

Findings judge_cancellation(const Ledger& ledger, const nlohmann::json& message, const protocol::Classified& c) {
  if (c.kind != protocol::Kind::Notification || c.method != "notifications/cancelled") return {};
  const auto params = message.find("params");
  if (params == message.end() || !params->is_object() || !params->contains("requestId"))
    return {};  // the schema monitor reports the missing field
  const nlohmann::json& id = (*params)["requestId"];
  const std::string key = protocol::id_key(id);
  if (ledger.initialize_from_peer && key == ledger.initialize_key)
    return {{"cancellation", {"CAN-02"}, std::string("the ") + protocol::sender_name(ledger.peer) +
                                             " cancelled its initialize request"}};
  // From 2026-07-28 a server ends a subscriptions/listen stream of the harness this way (SUB-10).
  const auto ours = ledger.ours.find(key);
  if (ledger.peer == protocol::Sender::Server && ours != ledger.ours.end() && ours->second.method == "subscriptions/listen")
    return {};
  if (!ledger.theirs.count(key))
    return {{"cancellation", {"CAN-01"}, std::string("the ") + protocol::sender_name(ledger.peer) +
                                             " cancelled request " + compact(id) + ", which it never sent"}};
  return {};
}

}  // namespace mcpspec::monitor
