#include "harness/monitor/ledger.hpp"

namespace mcpspec::monitor {

std::optional<nlohmann::json> progress_token_of(const nlohmann::json& message) {
  auto params = message.find("params");
  if (params == message.end() || !params->is_object()) return std::nullopt;
  auto meta = params->find("_meta");
  if (meta == params->end() || !meta->is_object()) return std::nullopt;
  auto token = meta->find("progressToken");
  if (token == meta->end()) return std::nullopt;
  return *token;
}

}  // namespace mcpspec::monitor
