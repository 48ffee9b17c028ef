#include "harness/monitor/modern_requests.hpp"

#include "harness/protocol/era.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>
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

// The connection is modern: the run's version is, and the client opened no legacy session.
bool modern_connection(const Ledger& ledger, const std::string& version) {
  return ledger.peer == protocol::Sender::Client && protocol::is_modern(version) && ledger.initialize_key.empty();
}

bool alnum(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; }
bool alpha(char ch) { return std::isalpha(static_cast<unsigned char>(ch)) != 0; }

// Why a _meta key breaks the naming rules, "" when it does not: an optional prefix of
// dot-separated labels (letter first, letter or digit last, hyphens inside) ending in "/"
// (BASE-19), then a name that is empty or starts and ends with a letter or digit, with "-", "_"
// and "." inside (BASE-20).
std::pair<std::string, std::string> meta_key_problem(const std::string& key) {
  auto slash = key.rfind('/');
  std::string name = slash == std::string::npos ? key : key.substr(slash + 1);
  if (slash != std::string::npos) {
    std::string prefix = key.substr(0, slash);
    std::size_t start = 0;
    for (;;) {
      auto dot = prefix.find('.', start);
      std::string label = prefix.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      bool ok = !label.empty() && alpha(label.front()) && alnum(label.back()) &&
                std::all_of(label.begin(), label.end(), [](char ch) { return alnum(ch) || ch == '-'; });
      if (!ok) return {"BASE-19", "the _meta key \"" + key + "\" has a malformed prefix label \"" + label + "\""};
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
  }
  if (!name.empty() &&
      (!alnum(name.front()) || !alnum(name.back()) ||
       !std::all_of(name.begin(), name.end(), [](char ch) { return alnum(ch) || ch == '-' || ch == '_' || ch == '.'; })))
    return {"BASE-20", "the _meta key \"" + key + "\" has a malformed name \"" + name + "\""};
  return {};
}

// W3C trace context: traceparent is version-traceid-parentid-flags in lower-case hex (BASE-24).
bool valid_traceparent(const std::string& v) {
  static const std::array<std::size_t, 4> widths = {2, 32, 16, 2};
  std::size_t pos = 0;
  for (std::size_t i = 0; i < widths.size(); ++i) {
    if (v.size() < pos + widths[i]) return false;
    for (std::size_t k = pos; k < pos + widths[i]; ++k)
      if (!std::isxdigit(static_cast<unsigned char>(v[k])) || std::isupper(static_cast<unsigned char>(v[k]))) return false;
    pos += widths[i];
    if (i + 1 < widths.size()) {
      if (pos >= v.size() || v[pos] != '-') return false;
      ++pos;
    }
  }
  return pos == v.size() && v.compare(3, 32, std::string(32, '0')) != 0 && v.compare(36, 16, std::string(16, '0')) != 0;
}

// The names of a message's _meta keys and the reserved trace-context values.
Findings judge_meta_keys(const json& message) {
  Findings out;
  const json* meta = meta_of(message);
  if (!meta) return out;
  for (const auto& [key, value] : meta->items()) {
    if (key == "traceparent") {
      if (!value.is_string() || !valid_traceparent(value.get<std::string>()))
        out.push_back({"modern_requests", {"BASE-24"}, "_meta.traceparent " + value.dump() + " is not a W3C traceparent"});
      continue;
    }
    if (key == "tracestate" || key == "baggage") {
      if (!value.is_string()) out.push_back({"modern_requests", {"BASE-24"}, "_meta." + key + " is not a string"});
      continue;
    }
    auto [req, text] = meta_key_problem(key);
    if (!req.empty()) out.push_back({"modern_requests", {req}, text});
  }
  return out;
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

const json* meta_of(const json& message) {
  auto p = message.find("params");
  if (p == message.end() || !p->is_object()) return nullptr;
  auto m = p->find("_meta");
  return m == p->end() || !m->is_object() ? nullptr : &*m;
}

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
  if (c.kind == Kind::Request || c.kind == Kind::Notification) {
    auto keys = judge_meta_keys(message);
    out.insert(out.end(), keys.begin(), keys.end());
  }
  return out;
}

}  // namespace mcpspec::monitor
