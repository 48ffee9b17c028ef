#pragma once
// What a server showed in a scenario's fixture (the version it negotiated, the capabilities it
// declared, whether it serves a modern version at all), kept for the rest of the run. Many
// scenarios end in SKIP on exactly that ("the server does not declare the prompts capability");
// over stdio each of them used to start a server process of its own only to find it out again.
// With the memo, a scenario whose SKIP the same handshake already decided is reported SKIP, with
// the same reason, without starting the target (docs/performance.md#skips-without-a-server-start).
//
// Only a handshake that passed without a single finding is kept, and only scenarios that would
// make the very same handshake, judged the same way (same fixture steps, environment, working
// directory, transport options, proposed version, validation, monitors, step timeout) use it: their
// sessions would have reached the same point with the same findings.
#include "harness/scenario/model.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace mcpspec::scenario {

struct RunConfig;

// What one clean fixture run showed.
struct HandshakeSeen {
  std::string negotiated;                        // empty: the fixture captured no version
  nlohmann::json server_capabilities;            // as the server declared them
  std::optional<std::string> not_served;         // a modern version the server does not serve: why
};

// Shared by every scenario of a run (RunConfig::handshakes); thread-safe.
class HandshakeMemo {
 public:
  // The first clean handshake under `key` is kept; later ones are the same handshake again.
  void remember(const std::string& key, HandshakeSeen seen);
  std::optional<HandshakeSeen> find(const std::string& key) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, HandshakeSeen> seen_;
};

// Everything that decides what `s`'s fixture exchange looks like at cfg.proposed_version.
std::string handshake_key(const Scenario& s, const RunConfig& cfg);

// Why `s` is skipped after a handshake that showed `negotiated` and `capabilities` (a capability
// it requires was not declared, a negotiated version outside its range); nothing when it runs.
std::optional<std::string> handshake_gate(const Scenario& s, const std::string& negotiated,
                                          const nlohmann::json& capabilities);

}  // namespace mcpspec::scenario
