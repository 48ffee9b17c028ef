#pragma once
// One log of every HTTP request a client under test makes to the protected MCP endpoint and to the
// mock authorization server, in arrival order, so a scenario can judge discovery order, where a
// token travelled and what each OAuth request carried (AUTH-29, 35, 36, 41-45, 67, 68 ...).
#include <nlohmann/json.hpp>

#include <chrono>
#include <mutex>
#include <vector>

namespace mcpspec::auth {

class RequestLog {
 public:
  static constexpr std::size_t kMaxEntries = 2000;
  // Appends {"seq", "ms", ...entry}; returns the sequence number (0-based), or -1 once full.
  long add(nlohmann::json entry);
  // Merges `extra` into an entry already added (what the handler decided, its status).
  void amend(long seq, const nlohmann::json& extra);
  nlohmann::json entries() const;

 private:
  mutable std::mutex mu_;
  std::vector<nlohmann::json> entries_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace mcpspec::auth
