#pragma once
// The modern-results monitor: what every message a server sends at a modern protocol version
// (2026-07-28 and later) must look like beyond its schema, judged by what the harness asked.
//  - every result names its resultType, complete or input_required (RT-01); input_required only
//    answers tools/call, prompts/get and resources/read (MRTR-02) and carries inputRequests or
//    requestState (MRTR-03), each input request holding only method and params (MRTR-04);
//  - a complete server/discover, list or resources/read result carries ttlMs (a whole number,
//    zero or more) and cacheScope public or private (CACHE-01, CACHE-02); discover names the
//    server in _meta serverInfo (DISC-04);
//  - the retired error codes -32002 and -32042 are never sent (ERR-04), nor undefined codes of the
//    spec's range -32099..-32020 (ERR-03);
//  - a server sends no JSON-RPC requests (BASE-23, MRTR-01), and notifications/cancelled only to
//    end a subscription (CAN-10); log messages only when a request asked for them (META-06);
//    progress and log messages are never tagged as subscription traffic (SUB-13); _meta key names
//    and the W3C trace values are well formed (BASE-19, BASE-20, BASE-24); resultType task only
//    answers a request that declared the tasks extension (RT-04);
//  - an input request asks only for what the request it answers declared in its _meta
//    clientCapabilities (elicitation, sampling, roots: MRTR-05), and within it only what the
//    feature's rules allow (input_requests.hpp: ELI-03/04/06/07, SMP-04/06/07/08/09/10/19);
//  - every tool's inputSchema has type object at its root, and it and the outputSchema are valid
//    JSON Schema 2020-12 when they name no other dialect (schema_validity.hpp: JSD-05);
//  - a change notification travels on a subscriptions/listen stream the harness opened: tagged in
//    _meta with that listen request's id (SUB-05), after its acknowledgment (SUB-02), and only of a
//    kind that listen request asked for (SUB-01).
// Only servers are judged here (the ledger's peer); clients under test have their own rules.
#include "harness/monitor/finding.hpp"
#include "harness/monitor/ledger.hpp"

#include <map>
#include <set>
#include <string>

namespace mcpspec::monitor {

class ModernResultsMonitor {
 public:
  // `answered_method`: for a response, the method of the harness's request it answers.
  Findings inbound(const Ledger& ledger, const nlohmann::json& message, const protocol::Classified& c,
                   const std::string& answered_method);
  // A request the harness sends: what it declared and, for subscriptions/listen, what it asked for.
  void outbound(const nlohmann::json& message, const protocol::Classified& c);
  void reset() {
    acknowledged_.clear();
    declared_.clear();
    filters_.clear();
  }

 private:
  Findings notification(const Ledger& ledger, const nlohmann::json& message, const protocol::Classified& c);
  // What the input requests of an input_required result ask, against what the request declared
  // (MRTR-05 here, the rest in input_requests.hpp).
  Findings input_capabilities(const nlohmann::json& result, const protocol::Classified& c) const;
  // The clientCapabilities the harness's request `c` answers declared in its _meta ({} when none).
  nlohmann::json declared_capabilities(const protocol::Classified& c) const;
  std::set<std::string> acknowledged_;            // id_keys of listen requests whose acknowledgment came
  std::map<std::string, nlohmann::json> declared_;  // id_key -> the request's _meta
  std::map<std::string, nlohmann::json> filters_;   // id_key of a listen request -> params.notifications
};

}  // namespace mcpspec::monitor
