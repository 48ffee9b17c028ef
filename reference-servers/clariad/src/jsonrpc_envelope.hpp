#pragma once
// Turns one input line into a JSON-RPC message, or into the error response it deserves.
// Only the envelope is judged here (jsonrpc, id, method, params shape); what a method does
// with its params is the dispatcher's business.
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include "json_types.hpp"
#include "rpc_error.hpp"

namespace clariad {

struct Message {
  enum class Kind { Request, Notification, Reply };
  Kind kind = Kind::Request;
  Json id;  // string or number; null for notifications and id-less replies
  std::string method;
  Json params;  // object or array; null when absent (or sent as null)
};

// Sent back as is: id is the request's id when it could be read, else null.
struct Rejection {
  OJson id;
  RpcError error;
};

struct BlankLine {};

using Envelope = std::variant<BlankLine, Message, Rejection>;

Envelope read_envelope(std::string_view line, std::size_t max_depth);

// A key that tells ids apart exactly ("7" and 7 are different requests).
std::string id_key(const Json& id);

}  // namespace clariad
