#pragma once
// Whether a scenario's result says its target never came up: the sign, in a parallel run, that
// the target cannot take that many sessions at once (throttle.hpp).
#include "harness/results/result.hpp"

namespace mcpspec::scenario {

// True for an ERROR because the target could not be started or reached, and for a FAIL or ERROR
// in which the target's process ended before it sent anything at all. Such a result may be the
// load's doing rather than the target's; any result in which the target said something, or
// stayed, is its own.
bool target_never_came_up(const ScenarioResult& r);

}  // namespace mcpspec::scenario
