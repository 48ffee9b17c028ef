#include "harness/run/startup_failure.hpp"

#include <algorithm>

namespace mcpspec::scenario {

bool target_never_came_up(const ScenarioResult& r) {
  if (r.verdict != Verdict::Fail && r.verdict != Verdict::Error) return false;
  // scenario_outcome.cpp words a transport's start-up failure this way, for either role.
  if (r.verdict == Verdict::Error && r.reason.rfind("could not start the ", 0) == 0) return true;
  // The target went away unasked (the runner adds MCPSPEC-ALIVE to what failed then) without
  // having said a word. A target that answered nothing but stayed (an HTTP server refusing a
  // request with a status, say) failed on its own.
  bool went_away = std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) {
    return std::find(f.requirements.begin(), f.requirements.end(), "MCPSPEC-ALIVE") != f.requirements.end();
  });
  return went_away &&
         std::none_of(r.wire.begin(), r.wire.end(), [](const WireEntry& w) { return w.dir == WireEntry::Dir::In; });
}

}  // namespace mcpspec::scenario
