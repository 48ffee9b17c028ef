#pragma once
// What one MCP session has carried so far, in both directions: the requests each side sent (by id,
// answered or not), the handshake (who proposed which version, what was negotiated, what each side
// declared). The stateful monitors judge a message by it; Monitors records each message in it
// after they have judged.
#include "harness/protocol/message.hpp"
#include "harness/protocol/schema_registry.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace mcpspec::monitor {

struct RequestRecord {
  std::string method;
  bool answered = false;
  std::optional<std::string> progress_token;  // id_key of params._meta.progressToken
};

struct Ledger {
  protocol::Sender peer = protocol::Sender::Server;  // who the target is
  std::map<std::string, RequestRecord> ours;     // id_key -> request the harness sent
  std::map<std::string, RequestRecord> theirs;   // id_key -> request the target sent (kept once answered)
  std::size_t their_requests = 0;                // requests the target sent (with or without a usable id)
  std::set<std::string> sent_ids;                // every id the harness put on a message, odd ones too
  int unreadable_sent = 0;                       // malformed frames sent; each may get an id-less error

  std::string initialize_key;      // id_key of the initialize request, whoever sent it
  bool initialize_from_peer = false;
  bool initialize_answered = false;
  bool initialized = false;        // notifications/initialized has gone out (or come in)
  std::string proposed;            // protocolVersion of the initialize request, if mcpspec knows it
  std::string negotiated;          // protocolVersion of its answer, if mcpspec knows it
  nlohmann::json client_caps = nullptr;  // null while unknown
  nlohmann::json server_caps = nullptr;

  // The version messages are validated against: the negotiated one, else the one the initialize
  // request proposed, else `fallback`.
  const std::string& validation_version(const std::string& fallback) const {
    if (!negotiated.empty()) return negotiated;
    return proposed.empty() ? fallback : proposed;
  }
  // The capabilities the sender of a message / its receiver declared.
  const nlohmann::json& caps_of(protocol::Sender side) const {
    return side == protocol::Sender::Server ? server_caps : client_caps;
  }
};

// params._meta.progressToken of a request, if it carries one.
std::optional<nlohmann::json> progress_token_of(const nlohmann::json& message);

}  // namespace mcpspec::monitor
