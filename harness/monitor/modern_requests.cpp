#include "harness/monitor/modern_requests.hpp"

#include "harness/protocol/era.hpp"

#include <array>
#include <string_view>

namespace mcpspec::monitor {

using nlohmann::json;
using protocol::Kind;

namespace {

// Methods of the legacy era that 2026-07-28 removed without a successor a client could send.
constexpr std::array<std::string_view, 6> kRemoved = {
    "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "notifications/initialized",
    "notifications/roots/list_changed"};

bool removed(const std::string& method) {
  for (auto m : kRemoved)
    if (m == method) return true;
  return false;
}

const json* meta_of(const json& message) {
  auto p = message.find("params");
  if (p == message.end() || !p->is_object()) return nullptr;
  auto m = p->find("_meta");
  return m == p->end() || !m->is_object() ? nullptr : &*m;
}

// The connection is modern: the run's version is, and the client opened no legacy session.
bool modern_connection(const Ledger& ledger, const std::string& version) {
  return ledger.peer == protocol::Sender::Client && protocol::is_modern(version) && ledger.initialize_key.empty();
}

Findings judge_meta(const json& message, const protocol::Classified& c) {
  Findings out;
  const json* meta = meta_of(message);
  const std::string what = "the client's " + c.method + " request";
  if (!meta) {
    out.push_back({"modern_requests", {"META-01"}, what + " carries no params._meta (the version and capabilities are required on every request)"});
    return out;
  }
  auto v = meta->find(protocol::meta_key::kProtocolVersion);
  if (v == meta->end() || !v->is_string())
    out.push_back({"modern_requests", {"META-01"}, what + "'s _meta has no string " + protocol::meta_key::kProtocolVersion});
  auto caps = meta->find(protocol::meta_key::kClientCapabilities);
  if (caps == meta->end() || !caps->is_object())
    out.push_back({"modern_requests", {"META-01"}, what + "'s _meta has no object " + protocol::meta_key::kClientCapabilities});
  auto info = meta->find(protocol::meta_key::kClientInfo);
  bool named = info != meta->end() && info->is_object() && info->contains("name") && (*info)["name"].is_string() &&
               info->contains("version") && (*info)["version"].is_string();
  if (!named)
    out.push_back({"modern_requests", {"META-03"}, what + "'s _meta does not name the client (" +
                                                       protocol::meta_key::kClientInfo + " with name and version)"});
  return out;
}

}  // namespace

std::optional<std::string> modern_version_of(const json& message) {
  const json* meta = meta_of(message);
  if (!meta) return std::nullopt;
  auto v = meta->find(protocol::meta_key::kProtocolVersion);
  if (v == meta->end() || !v->is_string() || !protocol::is_modern(v->get_ref<const std::string&>())) return std::nullopt;
  return v->get<std::string>();
}

void ModernRequestsMonitor::outbound(const Ledger& ledger, const protocol::Classified& c) {
  if (ledger.peer != protocol::Sender::Client || c.kind != Kind::Result || !c.id || !ledger.initialize_key.empty()) return;
  // Only an answer to a request the client sent counts (the ledger still holds it, answered or not).
  if (ledger.theirs.count(protocol::id_key(*c.id))) served_modern_ = true;
}

Findings ModernRequestsMonitor::inbound(const Ledger& ledger, const json& message, const protocol::Classified& c,
                                        const std::string& version) {
  Findings out;
  if (ledger.peer != protocol::Sender::Client || !protocol::is_modern(version)) return out;
  if (c.kind == Kind::Request && c.method == "initialize") {
    if (served_modern_)
      out.push_back({"modern_requests", {"VER-08", "VER-04"},
                     "the client sent initialize after the server had answered it in the modern era (a client that "
                     "got a modern answer stays modern)"});
    return out;
  }
  if (!modern_connection(ledger, version)) return out;
  if (c.kind == Kind::Result || c.kind == Kind::Error) {
    out.push_back({"modern_requests", {"BASE-23", "STDIO-08"},
                   "the client sent a JSON-RPC response; at " + version +
                       " servers send no requests and clients never send responses"});
    return out;
  }
  if ((c.kind == Kind::Request || c.kind == Kind::Notification) && removed(c.method))
    out.push_back({"modern_requests", {"MCPSPEC-SCHEMA"}, "the client sent " + c.method + ", which " + version +
                                                             " no longer has (removed with the stateless era)"});
  if (c.kind == Kind::Request) {
    auto meta = judge_meta(message, c);
    out.insert(out.end(), meta.begin(), meta.end());
  }
  return out;
}

}  // namespace mcpspec::monitor
