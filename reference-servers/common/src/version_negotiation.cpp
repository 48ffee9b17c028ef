#include "mcpref/version_negotiation.hpp"

#include <algorithm>
#include <stdexcept>

namespace mcpref {

std::string negotiate_protocol_version(const Json& initialize_params,
                                       const std::vector<std::string>& supported) {
  if (supported.empty()) throw std::logic_error("negotiate_protocol_version: no supported versions");
  if (initialize_params.is_object()) {
    auto it = initialize_params.find("protocolVersion");
    if (it != initialize_params.end() && it->is_string()) {
      const auto& requested = it->get_ref<const std::string&>();
      if (std::find(supported.begin(), supported.end(), requested) != supported.end()) {
        return requested;
      }
    }
  }
  return supported.front();
}

}  // namespace mcpref
