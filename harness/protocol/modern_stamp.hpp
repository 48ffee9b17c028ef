#pragma once
// What the harness adds to a request it sends at a modern protocol version (2026-07-28 and later):
// the per-request _meta that replaces the initialize handshake. Scenario files are written once for
// every version; at a modern version each request they send gets the version, the client's
// capabilities and its identity here, so the generic suites run unchanged.
#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec::protocol {

// `message` with params._meta completed: each of protocolVersion, clientCapabilities and
// clientInfo that the message does not already carry is added (what a scenario wrote wins, so a
// scenario can send another version or other capabilities). Only requests are changed, and only
// where params (and params._meta) is an object or absent: a deliberately malformed request keeps
// its malformation.
nlohmann::json with_modern_meta(nlohmann::json message, const std::string& version,
                                const nlohmann::json& client_capabilities, const nlohmann::json& client_info);

}  // namespace mcpspec::protocol
