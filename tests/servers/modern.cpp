#include "modern.hpp"

#include "capabilities.hpp"
#include "features.hpp"
#include "session.hpp"

namespace testserver {

namespace {

constexpr const char* kProtocolVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kClientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
constexpr const char* kServerInfoKey = "io.modelcontextprotocol/serverInfo";
constexpr int kUnsupportedProtocolVersion = -32022;
// How long (ms) a client may keep a list or discover result, and who may share it.
constexpr long long kTtlMs = 60000;

// Methods the modern revision removed: a modern request for one is an unknown method.
bool removed_method(const std::string& m) {
  return m == "initialize" || m == "ping" || m == "logging/setLevel" || m == "resources/subscribe" ||
         m == "resources/unsubscribe";
}

bool cacheable(const std::string& m) {
  return m == "server/discover" || m == "tools/list" || m == "prompts/list" || m == "resources/list" ||
         m == "resources/templates/list" || m == "resources/read";
}

// A dual-era server also lists the legacy versions (a client then falls back to initialize).
json supported_versions(const Options& opt) {
  if (opt.modern_only) return json::array({std::string(kModernVersion)});
  return json::array({std::string(kModernVersion), "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"});
}

// -32602 for a request that lacks a required _meta field (unless the fault serves it anyway).
void check_meta(Session& s, const json& meta) {
  if (s.faulty(Fault::meta_not_required)) return;
  const json* version = find_member(meta, kProtocolVersionKey);
  if (version == nullptr || !version->is_string()) {
    fail(rpc_code::invalid_params,
         std::string("params._meta[\"") + kProtocolVersionKey + "\"] is required and must be a string");
  }
  const json* caps = find_member(meta, kClientCapabilitiesKey);
  if (caps == nullptr || !caps->is_object()) {
    fail(rpc_code::invalid_params,
         std::string("params._meta[\"") + kClientCapabilitiesKey + "\"] is required and must be an object");
  }
}

void check_version(Session& s, const json& meta) {
  const json* v = find_member(meta, kProtocolVersionKey);
  if (v == nullptr || !v->is_string() || *v == kModernVersion) return;
  if (s.faulty(Fault::unsupported_version_wrong_code)) {
    fail(rpc_code::invalid_params, "unsupported protocol version");
  }
  json data = {{"requested", *v}};
  if (!s.faulty(Fault::unsupported_version_no_list)) data["supported"] = supported_versions(s.options());
  fail(kUnsupportedProtocolVersion, "Unsupported protocol version", std::move(data));
}

Outcome discover(Session& s) {
  json result = {{"supportedVersions", supported_versions(s.options())},
                 {"capabilities", capabilities_object(s.options(), Version::v2026_07_28)},
                 {"instructions", "Test server of the mcpspec project: deterministic fixtures for conformance checks."}};
  return Outcome::ok(std::move(result));
}

}  // namespace

bool is_modern_request(const json& params) {
  const json* meta = find_member(params, "_meta");
  if (meta == nullptr || !meta->is_object()) return false;
  // Only the modern per-request fields count: 2025-11-25 has io.modelcontextprotocol/ keys of its
  // own (related-task) on legacy requests.
  return meta->contains(kProtocolVersionKey) || meta->contains(kClientCapabilitiesKey);
}

Outcome route_modern(Session& s, const std::string& method, const Request& req) {
  static const json kNoMeta = json::object();
  const json* meta = find_member(req.params, "_meta");
  const json& m = meta != nullptr && meta->is_object() ? *meta : kNoMeta;
  check_meta(s, m);
  check_version(s, m);
  if (method == "server/discover") return discover(s);
  if (removed_method(method)) {
    if (s.faulty(Fault::removed_method_answered) && (method == "ping" || method == "logging/setLevel")) {
      return Outcome::ok(json::object());
    }
    fail(rpc_code::method_not_found, "method not found: " + method + " (not part of protocol " +
                                         std::string(kModernVersion) + ")",
         {{"method", method}});
  }
  if (method == "subscriptions/listen") return s.listens().open(s, req);
  if (method.starts_with("tasks/")) return s.tasks().serve(s, method, req);
  return s.serve_method(method, req);
}

void finish_modern_result(Session& s, const std::string& method, json& result) {
  if (!result.is_object()) return;
  if (!result.contains("resultType") && !s.faulty(Fault::missing_result_type)) result["resultType"] = "complete";
  const bool complete = result.value("resultType", std::string("complete")) == "complete";
  if (!(method == "server/discover" && s.faulty(Fault::discover_without_server_info))) {
    result["_meta"][kServerInfoKey] = server_info(Version::v2026_07_28);
  }
  if (!complete || !cacheable(method)) return;  // input-required results are never cached
  if (s.faulty(Fault::cache_hint_invalid) && method != "server/discover") {
    result["ttlMs"] = -1;
    result["cacheScope"] = "everyone";
    return;
  }
  result["ttlMs"] = kTtlMs;
  result["cacheScope"] = "public";
}

Outcome refuse_initialize_modern_only() {
  fail(rpc_code::invalid_request,
       "this server speaks only protocol " + std::string(kModernVersion) +
           " (no initialize): send requests with params._meta, or server/discover first",
       {{"supported", json::array({std::string(kModernVersion)})}});
}

}  // namespace testserver
