#include "harness/run/startup_failure.hpp"

#include <algorithm>

namespace mcpspec::scenario {

bool target_never_came_up(const ScenarioResult& r) {
  if (r.verdict != Verdict::Fail && r.verdict != Verdict::Error) return false;
  // scenario_outcome.cpp words a transport's start-up failure this way, for either role.
  if (r.verdict == Verdict::Error && r.reason.rfind("could not start the ", 0) == 0) return true;
  // An empty wire log: the scenario never started (e.g. the run's --deadline had passed).
  return !r.wire.empty() &&
         std::none_of(r.wire.begin(), r.wire.end(), [](const WireEntry& w) { return w.dir == WireEntry::Dir::In; });
}

}  // namespace mcpspec::scenario
