#pragma once
// The two eras of MCP and the names the modern era puts on the wire.
//
// Legacy versions (2025-11-25 and earlier) open a session with the initialize handshake; modern
// versions (2026-07-28 and later) carry version, identity and capabilities in every request's
// params._meta and keep no session. Both roles of the harness (and its monitors) ask this one
// place which era a version belongs to, so the rule is written once.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace mcpspec::protocol {

enum class Era { Legacy, Modern };

// The first modern revision; every later date is modern too (versions compare as dates).
inline constexpr std::string_view kFirstModernVersion = "2026-07-28";

Era era_of(std::string_view version);
inline bool is_modern(std::string_view version) { return era_of(version) == Era::Modern; }

// Keys of the modern per-message _meta object.
namespace meta_key {
inline constexpr const char* kProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* kClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* kClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr const char* kServerInfo = "io.modelcontextprotocol/serverInfo";
inline constexpr const char* kSubscriptionId = "io.modelcontextprotocol/subscriptionId";
}  // namespace meta_key

// JSON-RPC error codes the modern era adds.
namespace modern_error {
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kMissingRequiredClientCapability = -32021;
inline constexpr int kUnsupportedProtocolVersion = -32022;
// JSON-RPC errors that answer a readable request itself, also when they travel with an HTTP error
// status (400 with -32020, -32022 or -32602, 404 with -32601): the standard -32600..-32603 and
// the modern -32020..-32022. Such a response carries the request's id. The server-defined codes
// an HTTP-level refusal explains itself with (-32000 "Bad Request", -32001 "Session not found")
// and -32700 (nothing could be read) are not answers to the request.
inline bool answers_the_request(long long code) {
  return (code >= -32603 && code <= -32600) || (code >= kUnsupportedProtocolVersion && code <= kHeaderMismatch);
}
}  // namespace modern_error

// The values of a result's resultType member.
namespace result_type {
inline constexpr const char* kComplete = "complete";
inline constexpr const char* kInputRequired = "input_required";
}  // namespace result_type

// The _meta a modern request carries: the version and the client's capabilities (both required),
// and its identity (recommended; omitted when client_info is null).
nlohmann::json modern_request_meta(const std::string& version, const nlohmann::json& client_capabilities,
                                   const nlohmann::json& client_info);

}  // namespace mcpspec::protocol
