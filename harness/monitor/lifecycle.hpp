#pragma once
// The lifecycle monitor: the initialization phase's order, judged on the target's messages.
// A client under test: its first request is initialize (LC-02), it sends nothing but ping before
// the initialize answer (LC-05) and nothing but ping before its notifications/initialized (LC-04).
// A server under test: it sends no request but ping before the client's initialized (LC-06).
#include "harness/monitor/finding.hpp"
#include "harness/monitor/ledger.hpp"

namespace mcpspec::monitor {

Findings judge_lifecycle(const Ledger& ledger, const protocol::Classified& c);

}  // namespace mcpspec::monitor
