#pragma once
// The cancellation monitor: the target cancels only requests it sent itself (CAN-01), and a client
// never cancels its initialize request (CAN-02).
#include "harness/monitor/finding.hpp"
#include "harness/monitor/ledger.hpp"

namespace mcpspec::monitor {

Findings judge_cancellation(const Ledger& ledger, const nlohmann::json& message, const protocol::Classified& c);

}  // namespace mcpspec::monitor
