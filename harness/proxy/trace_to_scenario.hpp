#pragma once
// `mcpspec scenario from-trace`: a recorded session (a proxy trace) becomes a scenario that
// replays one side of it against the other. Role Server: the target is the server, the harness
// sends what the recorded client sent and expects what the recorded server answered. Role Client:
// the target is the client, the harness answers as the recorded server did and expects the
// recorded client's messages. Volatile values become captures or type matchers (replay_values.hpp),
// so the scenario passes against the same implementation and fails on a changed answer.
#include "harness/proxy/trace.hpp"
#include "harness/scenario/model.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::proxy {

struct FromTraceOptions {
  scenario::Role role = scenario::Role::Server;  // the role of the target the scenario tests
  std::string id;                                 // scenario id; empty: "trace/replay/<source stem>"
  std::string source;                             // the trace's file name (for the id and description)
};

struct FromTraceResult {
  nlohmann::json scenario;
  std::vector<std::string> notes;  // what the replay leaves out or changes, and why
};

// The replay scenario of a trace. Throws std::runtime_error when the trace holds nothing to
// replay (no JSON message of either side).
FromTraceResult scenario_from_trace(const std::vector<TraceEntry>& trace, const FromTraceOptions& options);

}  // namespace mcpspec::proxy
