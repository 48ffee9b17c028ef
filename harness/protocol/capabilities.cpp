#include "harness/protocol/capabilities.hpp"

namespace mcpspec::protocol {

bool capability_declared(const nlohmann::json& caps, const std::string& path) {
  const nlohmann::json* cur = &caps;
  std::size_t start = 0;
  for (;;) {
    // A key that itself holds dots (an extension such as io.modelcontextprotocol/tasks) is taken
    // whole when the rest of the path names it: "extensions.io.modelcontextprotocol/tasks".
    if (cur->is_object() && start > 0 && cur->contains(path.substr(start))) {
      cur = &(*cur)[path.substr(start)];
      break;
    }
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
