#pragma once
// Runs one client-role scenario: the harness plays the MCP server, the target is a client started
// through a ClientCarrier (docs/testing-clients.md). Called by run_scenario when the run's role is
// "client".
#include "harness/scenario/model.hpp"
#include "harness/results/result.hpp"
#include "harness/scenario/runner.hpp"

namespace mcpspec::scenario {

ScenarioResult run_client_scenario(const Scenario& scenario, const RunConfig& config);

// The tag a scenario carries when it needs a client that follows the client driver protocol
// (reads MCPSPEC_SCENARIO / MCPSPEC_CONTEXT); other clients get SKIP for it.
inline constexpr const char* kCooperativeTag = "cooperative";
// Client-auth scenarios (docs/authorization.md) run only with `--auth`, which protects the endpoint.
inline constexpr const char* kAuthTag = "auth";

}  // namespace mcpspec::scenario
