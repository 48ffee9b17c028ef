#pragma once
// JSON as text for wire logs, findings and reports. Peer output may hold invalid UTF-8, so it is
// replaced (U+FFFD) rather than allowed to throw while a finding is being written.
#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec {

inline std::string compact(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

inline std::string pretty(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace mcpspec
