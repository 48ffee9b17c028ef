#pragma once
// Classification of one JSON-RPC frame: what kind of message it is, its id and method, and what is
// wrong with its envelope. Total: every JSON value gets a classification, nothing throws.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcpspec::protocol {

enum class Kind { Request, Notification, Result, Error, Batch, Invalid };
const char* kind_name(Kind k);

struct Classified {
  Kind kind = Kind::Invalid;
  std::string method;                 // requests and notifications
  std::optional<nlohmann::json> id;   // as sent (string, integer, null...), absent when missing
  std::vector<std::string> problems;  // envelope problems, readable; empty when the envelope is fine
};

// Looks only at the JSON-RPC 2.0 envelope (jsonrpc, id, method, result/error); MCP rules are the
// schemas' job. A message with both result and error is classified Result with a problem noted.
Classified classify(const nlohmann::json& message);

// The requirement ids a classification problem breaks, most specific first (a null request id
// breaks BASE-04 before BASE-03). Both sessions' envelope monitors report problems with these.
std::vector<std::string> envelope_requirements(const std::string& problem);

// A stable text key for an id, so string "1" and integer 1 never collide: s:1 / i:1 / n:null.
std::string id_key(const nlohmann::json& id);

}  // namespace mcpspec::protocol
