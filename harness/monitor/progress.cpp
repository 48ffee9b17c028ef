#include "harness/monitor/progress.hpp"

#include "harness/util/json_text.hpp"

#include <fmt/format.h>

namespace mcpspec::monitor {

using nlohmann::json;

void ProgressMonitor::outbound_request(const json& message, const protocol::Classified& c) {
  if (!c.id) return;
  if (auto token = progress_token_of(message)) tokens_[protocol::id_key(*token)] = Track{protocol::id_key(*c.id), {}};
}

Findings ProgressMonitor::inbound(const Ledger& ledger, const json& message, const protocol::Classified& c) {
  Findings out;
  if (c.kind == protocol::Kind::Request) {
    auto token = progress_token_of(message);
    if (!token) return out;
    if (!(token->is_string() || token->is_number_integer()))
      out.push_back({"progress", {"PROG-01"}, "a progressToken that is neither a string nor an integer"});
    const std::string key = protocol::id_key(*token);
    for (const auto& [id, other] : ledger.theirs)
      if (!other.answered && other.progress_token == key)
        out.push_back({"progress", {"PROG-02"},
                       "progress token " + compact(*token) + " is already used by the " +
                           protocol::sender_name(ledger.peer) + "'s active request " + id.substr(2) + " (" +
                           other.method + ")"});
    return out;
  }
  if (c.kind != protocol::Kind::Notification || c.method != "notifications/progress") return out;
  const json empty = json::object();
  const json& params = message.contains("params") && message["params"].is_object() ? message["params"] : empty;
  if (!params.contains("progressToken")) return out;  // the schema monitor reports the missing field
  const json& token = params["progressToken"];
  auto it = tokens_.find(protocol::id_key(token));
  if (it == tokens_.end()) {
    out.push_back({"progress", {"PROG-06"},
                   "progress for token " + compact(token) + ", which no request of the harness carried"});
    return out;
  }
  auto request = ledger.ours.find(it->second.request_key);
  if (request != ledger.ours.end() && request->second.answered)
    out.push_back({"progress", {"PROG-10"}, "progress for token " + compact(token) + " after the response to its request"});
  if (params.contains("progress") && params["progress"].is_number()) {
    double value = params["progress"].get<double>();
    if (it->second.last && value <= *it->second.last)
      out.push_back({"progress", {"PROG-03"},
                     fmt::format("progress went from {} to {} for token {}: it must strictly increase", *it->second.last,
                                 value, compact(token))});
    it->second.last = value;
  }
  return out;
}

}  // namespace mcpspec::monitor
