#include "harness/protocol/modern_stamp.hpp"

#include "harness/protocol/era.hpp"

namespace mcpspec::protocol {

using nlohmann::json;

json with_modern_meta(json message, const std::string& version, const json& client_capabilities,
                      const json& client_info) {
  // A request is an object with a method and an id; notifications and responses carry no required _meta.
  if (!message.is_object() || !message.contains("method") || !message.contains("id")) return message;
  if (!message.contains("params")) message["params"] = json::object();
  json& params = message["params"];
  if (!params.is_object()) return message;
  if (!params.contains("_meta")) params["_meta"] = json::object();
  json& meta = params["_meta"];
  if (!meta.is_object()) return message;
  const json wanted = modern_request_meta(version, client_capabilities, client_info);
  for (const auto& [key, value] : wanted.items())
    if (!meta.contains(key)) meta[key] = value;
  return message;
}

}  // namespace mcpspec::protocol
