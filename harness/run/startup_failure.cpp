#include "harness/run/startup_failure.hpp"

#include "harness/scenario/session.hpp"

namespace mcpspec::scenario {

bool target_never_came_up(const ScenarioResult& r) {
  if (r.verdict != Verdict::Fail && r.verdict != Verdict::Error) return false;
  // scenario_outcome.cpp words a transport's start-up failure this way, for either role.
  if (r.verdict == Verdict::Error && r.reason.rfind("could not start the ", 0) == 0) return true;
  // The target's process ended without having said a word. A target that answered nothing but
  // stayed (an HTTP server refusing a request with a status, say) failed on its own.
  bool ended = false, spoke = false;
  for (const auto& w : r.wire) {
    if (w.dir == WireEntry::Dir::In) spoke = true;
    if (w.dir == WireEntry::Dir::Event && w.text.rfind(kTargetEndedEvent, 0) == 0) ended = true;
  }
  return ended && !spoke;
}

}  // namespace mcpspec::scenario
