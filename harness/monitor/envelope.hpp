#pragma once
// The envelope monitor (BASE-01, BASE-03, BASE-04, BASE-06, BASE-09 ... BASE-11): what is wrong
// with a message's JSON-RPC 2.0 envelope (protocol::classify found it), as findings.
#include "harness/monitor/finding.hpp"
#include "harness/protocol/message.hpp"

namespace mcpspec::monitor {

Findings envelope_findings(const protocol::Classified& c);

}  // namespace mcpspec::monitor
