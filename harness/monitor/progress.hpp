#pragma once
// The progress monitor. On progress the target reports for a token of the harness's requests: it
// names a token the harness sent (PROG-06), strictly increases (PROG-03) and stops once the request
// is answered (PROG-10). On the target's own requests: a token is a string or an integer (PROG-01)
// and not one its other active requests use (PROG-02).
#include "harness/monitor/finding.hpp"
#include "harness/monitor/ledger.hpp"

#include <map>
#include <optional>
#include <string>

namespace mcpspec::monitor {

class ProgressMonitor {
 public:
  // A request the harness sends (before the ledger records it).
  void outbound_request(const nlohmann::json& message, const protocol::Classified& c);
  Findings inbound(const Ledger& ledger, const nlohmann::json& message, const protocol::Classified& c);
  void reset() { tokens_.clear(); }

 private:
  struct Track {
    std::string request_key;
    std::optional<double> last;
  };
  std::map<std::string, Track> tokens_;  // id_key of a token the harness sent -> its request, last value
};

}  // namespace mcpspec::monitor
