// JSON-RPC 2.0 envelope handling: error codes, reply construction, and classification of one
// incoming value into request / notification / response, or the error reply it deserves.
#pragma once

#include "mcpref/json.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace mcpref::rpc {

inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

// Deeper nesting than this is refused before parsing: no legitimate message needs it, and it
// keeps recursion in any later consumer of the value bounded.
inline constexpr std::size_t kMaxNestingDepth = 64;

// Thrown by handlers to produce a specific JSON-RPC error reply.
class RpcError : public std::runtime_error {
 public:
  RpcError(int code, const std::string& message, Json data = nullptr)
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}
  int code() const { return code_; }
  const Json& data() const { return data_; }

 private:
  int code_;
  Json data_;
};

Json make_result(const Json& id, Json result);
// `data` is left out of the reply when null.
Json make_error(const Json& id, int code, const std::string& message, const Json& data = nullptr);

struct Message {
  enum class Kind { Request, Notification, Response };
  Kind kind = Kind::Request;
  Json id;             // requests and responses only
  std::string method;  // requests and notifications only
  Json params;         // null when absent (or given as null)
};

struct ParsedText {
  bool ok = false;
  Json value;        // when ok
  Json error_reply;  // when not ok: -32700 for malformed JSON, -32600 for excessive nesting
};

// Parses one line of text; failures carry the error reply to send (always with id null).
ParsedText parse_json_text(std::string_view text);

// Checks the envelope of one already-parsed value (one element when batching).
// Returns the message, or the error reply to send for it.
std::variant<Message, Json> classify(const Json& value);

// Largest bracket nesting depth of raw JSON text, ignoring brackets inside strings.
std::size_t nesting_depth(std::string_view text);

}  // namespace mcpref::rpc
