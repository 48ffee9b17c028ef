#include "harness/monitor/envelope.hpp"

namespace mcpspec::monitor {

Findings envelope_findings(const protocol::Classified& c) {
  Findings out;
  for (const auto& problem : c.problems) out.push_back({"envelope", protocol::envelope_requirements(problem), problem});
  return out;
}

}  // namespace mcpspec::monitor
