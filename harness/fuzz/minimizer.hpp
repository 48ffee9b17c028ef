#pragma once
// Shrinks what provoked a finding: first the message sequence (delta debugging over the messages
// sent since the last known-good point), then each remaining message (drop members, shorten
// strings and arrays, flatten nesting). Every candidate is replayed in a fresh target process
// after the handshake; it counts when the same oracle fires with the same signature.
#include "harness/fuzz/anomaly.hpp"
#include "harness/fuzz/fuzz_message.hpp"
#include "harness/fuzz/live_session.hpp"

#include <functional>
#include <vector>

namespace mcpspec::fuzz {

struct MinimizeBudget {
  int max_replays = 150;
  int max_ms = 30000;
  Deadline until = Deadline::never();  // an absolute bound as well (the campaign's)
};

struct Minimized {
  std::vector<FuzzMessage> messages;
  Anomaly anomaly;           // as seen in the last successful replay (method filled in when known)
  bool reproduced = false;   // the full sequence reproduced at least once
  int replays = 0;
};

// Replays `messages` after a handshake in a fresh session; returns every anomaly seen.
using Replayer = std::function<std::vector<Anomaly>(const std::vector<FuzzMessage>& messages)>;

// The replayer the campaign uses: a new LiveSession per call (no tools/list), settled at the end.
Replayer session_replayer(TransportFactory make, SessionSettings settings);

Minimized minimize(const std::vector<FuzzMessage>& history, const Anomaly& target, const Replayer& replay,
                   const MinimizeBudget& budget, const std::string& version, const protocol::SchemaRegistry& schemas);

}  // namespace mcpspec::fuzz
