#pragma once
// The modern-requests monitor: what a client owes a server at 2026-07-28 and later, on every
// message, whatever a scenario's steps do. A connection is modern once the run's version is modern
// and the client has not opened a legacy session with initialize (a dual-era client that fell back
// is judged by the legacy monitors). Then:
//   - every request carries params._meta with the protocol version and the client capabilities
//     (META-01), and should name the client (META-03);
//   - every _meta key of a request or notification is well formed (prefix labels BASE-19, name
//     BASE-20), and traceparent is a W3C traceparent (BASE-24);
//   - the client sends no JSON-RPC response: servers send no requests to answer (BASE-23, STDIO-08);
//   - the client sends none of the methods this era removed (ping, logging/setLevel,
//     resources/subscribe, resources/unsubscribe, notifications/initialized,
//     notifications/roots/list_changed; MCPSPEC-SCHEMA);
//   - a client that got a modern answer (a discover result, any result of a modern request) stays
//     modern: it does not send initialize afterwards (VER-04, VER-08).
// Only the client role is judged here; a server's modern messages are the server role's concern.
#include "harness/monitor/finding.hpp"
#include "harness/monitor/ledger.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace mcpspec::monitor {

// A message's params._meta when it is an object; nullptr otherwise.
const nlohmann::json* meta_of(const nlohmann::json& message);

// params._meta's protocol version of a request when it is a modern version (the request is then
// served statelessly by a dual-era server); nullopt for anything else.
std::optional<std::string> modern_version_of(const nlohmann::json& message);

class ModernRequestsMonitor {
 public:
  // A message the harness sends: a result to a modern request makes the client's era known.
  void outbound(const Ledger& ledger, const protocol::Classified& c);
  // A message from the target; `version` is the version the conversation validates against.
  Findings inbound(const Ledger& ledger, const nlohmann::json& message, const protocol::Classified& c,
                   const std::string& version);
  void reset() { served_modern_ = false; }

 private:
  bool served_modern_ = false;  // the harness answered a modern request with a result
};

}  // namespace mcpspec::monitor
