#include "harness/protocol/peer_json.hpp"

#include "harness/protocol/json_depth.hpp"

#include <fmt/format.h>

namespace mcpspec::protocol {

PeerJson read_peer_json(std::string_view text) {
  PeerJson out;
  if (json_nests_deeper_than(text)) {
    out.status = PeerJson::Status::TooDeep;
    out.detail = fmt::format("nested deeper than {} levels (mcpspec's limit)", kMaxJsonDepth);
    return out;
  }
  try {
    out.value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    out.status = PeerJson::Status::NotJson;
    out.detail = e.what();
  } catch (const nlohmann::json::out_of_range& e) {
    out.status = PeerJson::Status::NumberOutOfRange;
    out.detail = e.what();
  }
  return out;
}

}  // namespace mcpspec::protocol
