#pragma once
// One message the fuzzer sends, with what a correct server owes in return: a response with a
// given id, nothing (a notification), or an error whose code JSON-RPC fixes.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcpspec::protocol {
class SchemaRegistry;
}

namespace mcpspec::fuzz {

// Why a specific error code is owed (see ../shared/mcp-spec/ERROR_CODES.md).
enum class Demand {
  None,           // any answer the spec allows
  ParseError,     // bytes that are not JSON: -32700
  InvalidRequest, // JSON that is not a valid request object: -32600
  UnknownMethod,  // a request for a method no protocol version has: -32601
  InvalidParams,  // params our protocol schema rejects for a known method: -32602
};
int demanded_code(Demand d);          // 0 for None
const char* demand_name(Demand d);    // "parse error", ...

struct FuzzMessage {
  std::string bytes;                  // the frame as written, without the newline
  bool is_json = false;               // bytes parse as JSON (valid UTF-8 too)
  bool utf8 = true;                   // bytes are UTF-8 (a WebSocket peer may close with 1007 if not)
  std::string method;                 // "" when none or unreadable
  std::optional<nlohmann::json> id;   // a request id (string or integer) a response must echo
  bool notification = false;          // a well-formed notification: nothing may answer it
  bool may_get_null_error = false;    // malformed: an error with id null is a fair answer
  Demand demand = Demand::None;
  std::string origin;                 // how it was made, for reports ("tools/call echo full | deep-nest")
  bool at_limits = false;             // very deep or very large: may be refused whole
  bool cancellable = false;           // a tools/call: slow answers are cancelled, not reported
  // Read once here so the tracker never parses what we send again:
  std::optional<nlohmann::json> odd_id;  // malformed, with a non-null id MCP does not allow
  std::optional<nlohmann::json> cancels; // notifications/cancelled: the requestId it names
  std::vector<std::pair<std::string, nlohmann::json>> batch_requests;  // a batch's (method, readable id) pairs
};

// Reads `bytes` and fills in everything above but `origin`. `version` selects the method table
// and schemas used for the demanded code.
FuzzMessage describe_message(std::string bytes, std::string origin, const std::string& version,
                             const protocol::SchemaRegistry& schemas);
FuzzMessage describe_message(const nlohmann::json& message, std::string origin, const std::string& version,
                             const protocol::SchemaRegistry& schemas);
// The same for a value already serialized as `dumped` (the generator's common case): no second
// parse of text we just wrote, which was a quarter of the fuzzer's own CPU time.
FuzzMessage describe_message(const nlohmann::json& message, std::string dumped, std::string origin,
                             const std::string& version, const protocol::SchemaRegistry& schemas);

// Whether a server reached over HTTP may refuse `m` whole with an error status (HTTP-14) instead
// of answering it: anything that is no valid MCP request (malformed, at limits, a batch, params
// or _meta breaking the envelope every request shares), and a repeated initialize, which is
// outside the lifecycle. A valid request must get a JSON-RPC answer (HTTP-15). Validates, so it
// is for the rare refusal, not for every message sent.
bool refusable_over_http(const FuzzMessage& m, const std::string& version, const protocol::SchemaRegistry& schemas);

// True for method names no protocol version defines (our own "unknown method" probes).
bool is_made_up_method(const std::string& method);

}  // namespace mcpspec::fuzz
