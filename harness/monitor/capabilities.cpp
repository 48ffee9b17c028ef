#include "harness/monitor/capabilities.hpp"

#include "harness/protocol/capabilities.hpp"

namespace mcpspec::monitor {

Findings judge_capability(const Ledger& ledger, const protocol::Classified& c, const std::string& version) {
  using protocol::Sender;
  if (c.kind != protocol::Kind::Request && c.kind != protocol::Kind::Notification) return {};
  // The facts come from our own method tables even under --schema: a user's file may not say.
  auto info = protocol::SchemaRegistry::builtin().method(version, c.method);
  if (!info || info->capability.empty()) return {};
  auto colon = info->capability.find(':');
  if (colon == std::string::npos) return {};
  std::string holder = info->capability.substr(0, colon), capability = info->capability.substr(colon + 1);
  // "sender:" and "receiver:" capabilities (tasks) belong to whoever sent or receives this message.
  const Sender peer = ledger.peer;
  const char* peer_name = protocol::sender_name(peer);
  if (holder == "sender") holder = peer_name;
  else if (holder == "receiver") holder = peer == Sender::Server ? "client" : "server";
  const nlohmann::json& declared = ledger.caps_of(holder == "server" ? Sender::Server : Sender::Client);
  if (declared.is_null() || protocol::capability_declared(declared, capability)) return {};  // unknown yet, or declared
  std::vector<std::string> reqs{"LC-15"};
  if (c.method == "notifications/message") reqs = {"LOG-01"};
  else if (capability == "resources.subscribe" && c.kind == protocol::Kind::Request) reqs = {"RES-04", "LC-15"};
  std::string who = holder == peer_name ? std::string("it") : std::string("the ") + holder;
  std::string what = c.method == "notifications/message"
                         ? std::string("a log message (notifications/message) from a server that did not declare the "
                                       "logging capability")
                         : std::string("the ") + peer_name + " sent " + c.method + " although " + who +
                               " did not declare the " + capability + " capability";
  return {{"capabilities", std::move(reqs), std::move(what)}};
}

}  // namespace mcpspec::monitor
