#include "harness/protocol/capabilities.hpp"

namespace mcpspec::protocol {

bool capability_declared(const nlohmann::json& caps, const std::string& path) {
  const nlohmann::json* cur = &caps;
  std::size_t start = 0;
  for (;;) {
    auto dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!cur->is_object() || !cur->contains(part)) return false;
    cur = &(*cur)[part];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return !(cur->is_null() || (cur->is_boolean() && !cur->get<bool>()));
}

}  // namespace mcpspec::protocol
