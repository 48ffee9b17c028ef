#pragma once
// What running one scenario looks like from outside, whichever role the target plays: the result
// header, the preconditions that make it SKIP, the exceptions that make it ERROR, and the verdict
// its findings give. The server runner (runner.cpp) and the client runner (client_runner.cpp)
// differ only in the execution they pass in.
#include "harness/scenario/model.hpp"
#include "harness/results/result.hpp"
#include "harness/scenario/runner.hpp"

#include <functional>
#include <optional>
#include <string>

namespace mcpspec::scenario {

// The words a report uses for the role under test.
struct RoleWording {
  Role role;                  // the scenario role this run executes (the result records it too)
  std::string version_verb;   // "proposes" / "answers with"
  std::string target_noun;    // "target" / "client": "could not start the <noun>"
};

// How one execution ended when it did not throw: a SKIP decided by a step, or an ERROR found
// after the fact (e.g. a client that never connected).
struct ExecutionEnd {
  std::optional<std::string> skip;
  std::optional<std::string> error;
};

// The bound on one whole scenario: the run's --scenario bound, or ten times the longest wait the
// scenario allows one step (its timeout_ms or a step's within_ms, fixture included) when that is
// more, so a scenario that lets each of ten tool calls take 30 s can finish. Never past the run's
// own deadline.
Deadline scenario_deadline(const Scenario& s, const RunConfig& cfg);

// Fills the result header, checks the role/protocol/transport preconditions and `extra_skip` (a
// reason to SKIP decided by the caller, checked after the transport), then runs `execute` and
// turns its exceptions into ERROR with a reason naming the kind of failure (CannotCheck: FAIL
// when a MUST finding already stands).
ScenarioResult run_with_outcome(const Scenario& s, const RunConfig& cfg, const RoleWording& wording,
                                const std::optional<std::string>& extra_skip,
                                const std::function<ExecutionEnd(ScenarioResult&)>& execute);

}  // namespace mcpspec::scenario
