#include "harness/scenario/handshake_memo.hpp"

#include "harness/protocol/capabilities.hpp"
#include "harness/scenario/runner.hpp"

namespace mcpspec::scenario {

void HandshakeMemo::remember(const std::string& key, HandshakeSeen seen) {
  std::lock_guard<std::mutex> lock(mutex_);
  seen_.emplace(key, std::move(seen));
}

std::optional<HandshakeSeen> HandshakeMemo::find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = seen_.find(key);
  if (it == seen_.end()) return std::nullopt;
  return it->second;
}

std::string handshake_key(const Scenario& s, const RunConfig& cfg) {
  // The fixture steps by content, not by name: two folders may each have an "initialized" of their
  // own. How strictly the handshake is judged belongs to the key too: a handshake clean under
  // "validate": "off" or a monitor turned off may be a FAIL under the full checks.
  nlohmann::json key = {{"version", cfg.proposed_version},
                        {"fixture", s.fixture_steps_at(cfg.proposed_version)},
                        {"env", s.env},
                        {"workdir", s.workdir_from},
                        {"transport", s.transport_options},
                        {"validate", static_cast<int>(s.validate)},
                        {"monitors", s.monitors},
                        {"timeout_ms", s.timeout_ms ? nlohmann::json(*s.timeout_ms) : nlohmann::json()}};
  return key.dump();
}

std::optional<std::string> handshake_gate(const Scenario& s, const std::string& negotiated,
                                          const nlohmann::json& capabilities) {
  for (const auto& cap : s.server_capabilities)
    if (!protocol::capability_declared(capabilities, cap)) return "the server does not declare the " + cap + " capability";
  if (!negotiated.empty() && !s.protocol.contains(negotiated))
    return "the server negotiated " + negotiated + ", outside this scenario's range " + s.protocol.text();
  return std::nullopt;
}

}  // namespace mcpspec::scenario
