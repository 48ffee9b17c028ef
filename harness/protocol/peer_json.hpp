#pragma once
// Reading one frame a peer (server or client under test) wrote, before anything else touches it.
// Three ways it can be unreadable, each needing its own report: not JSON at all, JSON nested too
// deep to handle safely (json_depth.hpp), and a number beyond a double (1e999), which nlohmann
// reports as out_of_range rather than a parse error. Every reader of peer output goes through
// here so that none of them forgets one of the three.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace mcpspec::protocol {

struct PeerJson {
  enum class Status { Ok, NotJson, TooDeep, NumberOutOfRange };
  Status status = Status::Ok;
  nlohmann::json value;  // set when Ok
  std::string detail;    // the parser's message, or the depth limit, when not Ok
};

PeerJson read_peer_json(std::string_view text);

}  // namespace mcpspec::protocol
