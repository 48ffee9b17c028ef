#pragma once
// Before a suite runs: can the target be started and reached at all? A server command that is not
// found, exits at once or never answers, a URL where nothing listens, a client command that cannot
// start: each of these would otherwise give one FAIL or ERROR per scenario, which reads as a
// non-conforming target rather than a broken set-up. The probe starts the target once, makes the
// first exchange (a server gets an initialize request; a client is waited for until it reaches its
// server) and stops it. Whatever the target does after it has answered is left to the scenarios.
#include "harness/scenario/runner.hpp"

#include <optional>
#include <string>

namespace mcpspec::scenario {

// One line naming the target (command or URL), what went wrong (the error, the exit status, how
// long it was waited for) and the tail of the target's stderr; nothing when the target answered.
// Bounded by config.startup_timeout_ms (plus the transport's own stop grace); never throws.
std::optional<std::string> preflight(const RunConfig& config);

}  // namespace mcpspec::scenario
