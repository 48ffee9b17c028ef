#pragma once
// A finding as a scenario file: role server, the handshake and the minimized messages, then the
// behaviour a correct server shows. `mcpspec run --server CMD FILE` replays it to a FAIL that
// names the oracle (in the scenario id, the step note and the requirement).
#include "harness/fuzz/minimizer.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec::fuzz {

struct FindingContext {
  std::string version;        // the version proposed in the campaign
  std::uint64_t seed = 0;
  std::size_t message_number = 0;  // how many messages the campaign had sent when it saw it
  int timeout_ms = 2000;
  std::string target;         // the command or URL
  int job = 0;                // the job index: with the seed, what reproduces its message stream
};

nlohmann::json finding_scenario(const Minimized& m, const FindingContext& ctx);
// A file name for it: "<oracle>-<method>-<hash>.json" (only [a-z0-9-]).
std::string finding_file_name(const Anomaly& a);

}  // namespace mcpspec::fuzz
