#pragma once
// Every monitor of one conversation, whichever role the target plays: the ledger of what the MCP
// session carried, and the stateful monitors that judge each of the target's messages by it (ids,
// lifecycle, capabilities, progress, cancellation). The stateless ones (framing, envelope, schema)
// are called directly: they need no ledger. The scenario conversations and the live fuzzer's
// oracle both judge through these units.
#include "harness/monitor/finding.hpp"
#include "harness/monitor/ledger.hpp"
#include "harness/monitor/modern_requests.hpp"
#include "harness/monitor/modern_results.hpp"
#include "harness/monitor/progress.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::monitor {

class Monitors {
 public:
  // `peer` is who the target is; `known_version` says whether mcpspec can validate a version (a
  // handshake on a version it has no schema for does not change the validation version).
  Monitors(protocol::Sender peer, std::function<bool(std::string_view)> known_version);

  // A new MCP session (the target restarted, the client reconnected): nothing carries over.
  void reset();

  // A message the harness sends (`deliberately_invalid`: it was made malformed on purpose).
  void outbound(const nlohmann::json& message, const protocol::Classified& c, bool deliberately_invalid);
  // Bytes the harness sends that are not a message at all.
  void unreadable_sent() { ++ledger_.unreadable_sent; }

  struct Judged {
    Findings findings;
    std::vector<std::string> events;  // facts worth a line in the wire log
    std::string answered_method;      // for a response: the method of the harness's request it answers
  };
  // Judges one message from the target (its envelope already classified), then records it.
  // `version` is the version its rules are read from (capabilities per method).
  Judged inbound(const nlohmann::json& message, const protocol::Classified& c, const std::string& version);

  // The method of the target's request that an outbound response answers ("" when unknown).
  std::string method_answered_by_us(const protocol::Classified& c) const;

  const Ledger& ledger() const { return ledger_; }

 private:
  void record_request(std::map<std::string, RequestRecord>& book, const nlohmann::json& message,
                      const protocol::Classified& c, bool from_peer);
  void record_response(std::map<std::string, RequestRecord>& book, const nlohmann::json& message,
                       const protocol::Classified& c, std::vector<std::string>* events);
  void record_discover_request(const nlohmann::json& message);
  void record_discover_result(const nlohmann::json& result);

  Ledger ledger_;
  ProgressMonitor progress_;
  ModernRequestsMonitor modern_requests_;  // a client's duties at 2026-07-28 (modern_requests.hpp)
  ModernResultsMonitor modern_results_;    // a server's messages at 2026-07-28 (modern_results.hpp)
  std::function<bool(std::string_view)> known_version_;
};

}  // namespace mcpspec::monitor
