#pragma once
// The capabilities monitor (LC-15, LOG-01, RES-04): a request or notification that needs a
// capability its sender (or its receiver) did not declare, by the generated method tables of the
// version (schemas/<version>/methods.json).
#include "harness/monitor/finding.hpp"
#include "harness/monitor/ledger.hpp"

#include <string>

namespace mcpspec::monitor {

Findings judge_capability(const Ledger& ledger, const protocol::Classified& c, const std::string& version);

}  // namespace mcpspec::monitor
