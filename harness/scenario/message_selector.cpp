#include "harness/scenario/message_selector.hpp"

namespace mcpspec::scenario {

std::function<bool(const InboundMessage&)> selector_for(const nlohmann::json& matcher) {
  if (matcher.is_object() && matcher.contains("id") && !matcher["id"].is_object()) {
    nlohmann::json id = matcher["id"];
    return [id](const InboundMessage& m) {
      return m.json.is_object() && m.json.contains("id") && m.json["id"] == id && m.json["id"].type() == id.type() &&
             !m.json.contains("method");
    };
  }
  if (matcher.is_object() && matcher.contains("method") && matcher["method"].is_string()) {
    std::string method = matcher["method"];
    return [method](const InboundMessage& m) { return m.kind.method == method; };
  }
  return [](const InboundMessage&) { return true; };
}

}  // namespace mcpspec::scenario
