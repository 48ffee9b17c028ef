#include "harness/scenario/modern_reply.hpp"

#include "harness/protocol/era.hpp"

#include <array>
#include <string_view>

namespace mcpspec::scenario {

using nlohmann::json;

bool is_cacheable_method(const std::string& method) {
  static constexpr std::array<std::string_view, 6> kCacheable = {
      "server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"};
  for (auto m : kCacheable)
    if (m == method) return true;
  return false;
}

json complete_modern_result(json result, const std::string& method) {
  if (!result.is_object()) return result;
  if (!result.contains("resultType")) result["resultType"] = protocol::result_type::kComplete;
  if (result["resultType"] == protocol::result_type::kComplete && is_cacheable_method(method)) {
    if (!result.contains("ttlMs")) result["ttlMs"] = 0;
    if (!result.contains("cacheScope")) result["cacheScope"] = "private";
  }
  return result;
}

json discover_result(const std::vector<std::string>& versions, const json& capabilities,
                     const std::string& mcpspec_version) {
  json r = {{"supportedVersions", versions},
            {"capabilities", capabilities.is_object() ? capabilities : json::object()},
            {"_meta", {{protocol::meta_key::kServerInfo, {{"name", "mcpspec"}, {"version", mcpspec_version}}}}}};
  return complete_modern_result(std::move(r), "server/discover");
}

}  // namespace mcpspec::scenario
