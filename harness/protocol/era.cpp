#include "harness/protocol/era.hpp"

namespace mcpspec::protocol {

// Version strings are ISO dates, so comparing them as text orders them in time. Anything that is
// not a date (a typo, "draft") counts as legacy: the harness then proposes initialize, which every
// server can answer, rather than send stateless requests a legacy server may misread.
Era era_of(std::string_view version) {
  const bool date_shaped = version.size() == kFirstModernVersion.size() && version[4] == '-' && version[7] == '-';
  return date_shaped && version >= kFirstModernVersion ? Era::Modern : Era::Legacy;
}

nlohmann::json modern_request_meta(const std::string& version, const nlohmann::json& client_capabilities,
                                   const nlohmann::json& client_info) {
  nlohmann::json meta = {{meta_key::kProtocolVersion, version},
                         {meta_key::kClientCapabilities,
                          client_capabilities.is_object() ? client_capabilities : nlohmann::json::object()}};
  if (!client_info.is_null()) meta[meta_key::kClientInfo] = client_info;
  return meta;
}

}  // namespace mcpspec::protocol
