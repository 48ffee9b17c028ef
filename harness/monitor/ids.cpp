#include "harness/monitor/ids.hpp"

#include "harness/util/json_text.hpp"

namespace mcpspec::monitor {

Findings judge_request_id(const Ledger& ledger, const protocol::Classified& c) {
  if (!c.id || c.id->is_null() || !ledger.theirs.count(protocol::id_key(*c.id))) return {};
  return {{"ids", {"BASE-05"},
           std::string("the ") + protocol::sender_name(ledger.peer) + " used request id " + compact(*c.id) +
               " twice in one session"}};
}

Findings judge_response_id(Ledger& ledger, const protocol::Classified& c, std::string& answered_method) {
  const bool error = c.kind == protocol::Kind::Error;
  if (!c.id || c.id->is_null()) {
    if (error && ledger.unreadable_sent > 0) {
      --ledger.unreadable_sent;
      return {};
    }
    return {{"unsolicited_response", {"BASE-12", "BASE-06"},
             error ? "an error response without an id, answering nothing the harness sent unreadable (a response to "
                     "a notification?)"
                   : "a result response without an id (a response to a notification?)"}};
  }
  const std::string key = protocol::id_key(*c.id);
  auto it = ledger.ours.find(key);
  if (it == ledger.ours.end()) {
    if (error && ledger.unreadable_sent > 0 && ledger.sent_ids.count(key)) {
      --ledger.unreadable_sent;
      return {};
    }
    return {{"unsolicited_response", {"BASE-06", "BASE-12"},
             "a response with id " + compact(*c.id) +
                 ", which matches no request the harness sent (ids must be echoed exactly: type and value)"}};
  }
  answered_method = it->second.method;
  if (it->second.answered)
    return {{"duplicate_response", {"MCPSPEC-RESPONSE"},
             "a second response to request " + compact(*c.id) + " (" + it->second.method + ")"}};
  return {};
}

}  // namespace mcpspec::monitor
