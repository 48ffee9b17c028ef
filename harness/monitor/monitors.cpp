#include "harness/monitor/monitors.hpp"

#include "harness/monitor/cancellation.hpp"
#include "harness/monitor/capabilities.hpp"
#include "harness/monitor/ids.hpp"
#include "harness/monitor/lifecycle.hpp"
#include "harness/protocol/era.hpp"

namespace mcpspec::monitor {

using nlohmann::json;
using protocol::Kind;

Monitors::Monitors(protocol::Sender peer, std::function<bool(std::string_view)> known_version)
    : known_version_(std::move(known_version)) {
  ledger_.peer = peer;
}

void Monitors::reset() {
  Ledger fresh;
  fresh.peer = ledger_.peer;
  ledger_ = std::move(fresh);
  progress_.reset();
  modern_requests_.reset();
  modern_results_.reset();
}

void Monitors::record_request(std::map<std::string, RequestRecord>& book, const json& message,
                              const protocol::Classified& c, bool from_peer) {
  RequestRecord r{c.method, false, std::nullopt};
  if (auto token = progress_token_of(message)) r.progress_token = protocol::id_key(*token);
  const std::string key = c.id ? protocol::id_key(*c.id) : std::string();
  if (c.method == "initialize") {
    ledger_.initialize_key = key;
    ledger_.initialize_from_peer = from_peer;
    const auto params = message.find("params");
    const bool has_params = params != message.end() && params->is_object();
    if (has_params && params->contains("protocolVersion") && (*params)["protocolVersion"].is_string()) {
      const auto& v = (*params)["protocolVersion"].get_ref<const std::string&>();
      if (known_version_(v)) ledger_.proposed = v;
    }
    // No capabilities member: the client declared none.
    ledger_.client_caps = has_params && params->contains("capabilities") ? (*params)["capabilities"] : json::object();
  }
  if (c.method == "server/discover") record_discover_request(message);
  if (c.id && !c.id->is_null()) book[key] = std::move(r);
}

// At a modern version server/discover stands where initialize stood: the version its _meta asks
// for is the proposed one (what messages are validated against until the answer).
void Monitors::record_discover_request(const json& message) {
  const auto params = message.find("params");
  if (params == message.end() || !params->is_object() || !params->contains("_meta")) return;
  const json& meta = (*params)["_meta"];
  if (!meta.is_object() || !meta.contains(protocol::meta_key::kProtocolVersion)) return;
  const json& v = meta[protocol::meta_key::kProtocolVersion];
  if (v.is_string() && known_version_(v.get<std::string>())) ledger_.proposed = v.get<std::string>();
}

// A DiscoverResult declares the server's capabilities; the version asked for counts as negotiated
// when its supportedVersions lists it.
void Monitors::record_discover_result(const json& result) {
  if (!result.is_object()) return;
  ledger_.server_caps = result.contains("capabilities") ? result["capabilities"] : json::object();
  const auto versions = result.find("supportedVersions");
  if (ledger_.proposed.empty() || versions == result.end() || !versions->is_array()) return;
  for (const auto& v : *versions)
    if (v.is_string() && v.get<std::string>() == ledger_.proposed) ledger_.negotiated = ledger_.proposed;
}

void Monitors::record_response(std::map<std::string, RequestRecord>& book, const json& message,
                               const protocol::Classified& c, std::vector<std::string>* events) {
  if (!c.id) return;
  auto it = book.find(protocol::id_key(*c.id));
  if (it == book.end() || it->second.answered) return;
  it->second.answered = true;
  if (it->second.method == "server/discover" && c.kind == Kind::Result) record_discover_result(message["result"]);
  if (it->second.method != "initialize" || c.kind != Kind::Result) return;
  ledger_.initialize_answered = true;
  const json& result = message["result"];
  if (!result.is_object()) return;
  if (result.contains("protocolVersion") && result["protocolVersion"].is_string()) {
    const auto& v = result["protocolVersion"].get_ref<const std::string&>();
    // Further traffic is validated with the answered version when mcpspec knows it.
    if (known_version_(v)) ledger_.negotiated = v;
    else if (events) events->push_back("the target answered protocolVersion " + v + ", which mcpspec has no schema for");
  }
  ledger_.server_caps = result.contains("capabilities") ? result["capabilities"] : json::object();
}

void Monitors::outbound(const json& message, const protocol::Classified& c, bool deliberately_invalid) {
  if (deliberately_invalid) ++ledger_.unreadable_sent;
  if (c.id) ledger_.sent_ids.insert(protocol::id_key(*c.id));
  switch (c.kind) {
    case Kind::Request:
      progress_.outbound_request(message, c);
      modern_results_.outbound(message, c);
      record_request(ledger_.ours, message, c, false);
      break;
    case Kind::Notification:
      if (c.method == "notifications/initialized") ledger_.initialized = true;
      break;
    case Kind::Result:
    case Kind::Error:
      modern_requests_.outbound(ledger_, c);
      record_response(ledger_.theirs, message, c, nullptr);
      break;
    default:
      break;
  }
}

Monitors::Judged Monitors::inbound(const json& message, const protocol::Classified& c, const std::string& version) {
  Judged out;
  auto add = [&out](Findings found) {
    for (auto& f : found) out.findings.push_back(std::move(f));
  };
  add(modern_requests_.inbound(ledger_, message, c, version));
  // A modern client opens no session, so the legacy handshake order does not apply to it.
  const bool legacy_lifecycle = !(ledger_.peer == protocol::Sender::Client && protocol::is_modern(version) &&
                                  ledger_.initialize_key.empty() && c.method != "initialize");
  switch (c.kind) {
    case Kind::Request:
      add(judge_request_id(ledger_, c));
      if (legacy_lifecycle) add(judge_lifecycle(ledger_, c));
      add(judge_capability(ledger_, c, version));
      add(progress_.inbound(ledger_, message, c));
      ++ledger_.their_requests;
      record_request(ledger_.theirs, message, c, true);
      break;
    case Kind::Notification:
      if (legacy_lifecycle) add(judge_lifecycle(ledger_, c));
      add(judge_capability(ledger_, c, version));
      add(progress_.inbound(ledger_, message, c));
      add(judge_cancellation(ledger_, message, c));
      if (c.method == "notifications/initialized") ledger_.initialized = true;
      break;
    case Kind::Result:
    case Kind::Error:
      add(judge_response_id(ledger_, c, out.answered_method));
      break;
    default:
      break;
  }
  // At a modern version, judged before the ledger records a response (a discover result must not
  // count as answered before its own checks).
  if (protocol::is_modern(version)) add(modern_results_.inbound(ledger_, message, c, out.answered_method));
  if (c.kind == Kind::Result || c.kind == Kind::Error) record_response(ledger_.ours, message, c, &out.events);
  return out;
}

std::string Monitors::method_answered_by_us(const protocol::Classified& c) const {
  if (!c.id || (c.kind != Kind::Result && c.kind != Kind::Error)) return "";
  auto it = ledger_.theirs.find(protocol::id_key(*c.id));
  return it == ledger_.theirs.end() ? "" : it->second.method;
}

}  // namespace mcpspec::monitor
