#include "harness/monitor/modern_results.hpp"

#include "harness/monitor/input_requests.hpp"
#include "harness/monitor/schema_validity.hpp"

#include "harness/protocol/era.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace mcpspec::monitor {

using nlohmann::json;
using protocol::Kind;

namespace {

constexpr const char* kMonitor = "modern";
constexpr const char* kLogLevelKey = "io.modelcontextprotocol/logLevel";
constexpr int kRetiredNotFound = -32002;
constexpr int kRetiredUrlElicitation = -32042;
constexpr int kSpecRangeLow = -32099, kSpecRangeHigh = -32020;

bool may_need_input(const std::string& method) {
  return method == "tools/call" || method == "prompts/get" || method == "resources/read";
}

bool cacheable(const std::string& method) {
  return method == "server/discover" || method == "tools/list" || method == "prompts/list" ||
         method == "resources/list" || method == "resources/templates/list" || method == "resources/read";
}

// Notifications that report a change and so belong on a listen stream.
bool change_notification(const std::string& method) {
  return method == "notifications/tools/list_changed" || method == "notifications/prompts/list_changed" ||
         method == "notifications/resources/list_changed" || method == "notifications/resources/updated" ||
         method == "notifications/subscriptions/acknowledged";
}

Findings judge_input_required(const json& result, const std::string& method) {
  Findings out;
  if (!method.empty() && !may_need_input(method))
    out.push_back({kMonitor, {"MRTR-02"}, "an input_required result answers " + method +
                                              " (only tools/call, prompts/get and resources/read may ask for input)"});
  const bool has_requests = result.contains("inputRequests"), has_state = result.contains("requestState");
  if (!has_requests && !has_state)
    out.push_back({kMonitor, {"MRTR-03"}, "an input_required result carries neither inputRequests nor requestState"});
  if (has_requests && result["inputRequests"].is_object())
    for (const auto& [key, req] : result["inputRequests"].items()) {
      if (!req.is_object()) continue;  // the schema monitor reports the shape
      for (const auto& [member, value] : req.items())
        if (member != "method" && member != "params") {
          out.push_back({kMonitor, {"MRTR-04"}, "the input request \"" + key + "\" has a member \"" + member +
                                                    "\" (an input request holds only method and params)"});
          break;
        }
    }
  return out;
}

Findings judge_cache_hints(const json& result, const std::string& method) {
  Findings out;
  if (!result.contains("ttlMs") || !result.contains("cacheScope")) {
    out.push_back({kMonitor, {"CACHE-01"}, "the " + method + " result has no " +
                                               (result.contains("ttlMs") ? "cacheScope" : "ttlMs") +
                                               " (complete discover, list and read results carry both)"});
    return out;
  }
  const json& ttl = result["ttlMs"];
  if (!ttl.is_number_integer() || ttl.get<long long>() < 0)
    out.push_back({kMonitor, {"CACHE-02"}, "the " + method + " result's ttlMs is " + ttl.dump().substr(0, 60) +
                                               ", not a whole number of milliseconds, zero or more"});
  const json& scope = result["cacheScope"];
  if (scope != "public" && scope != "private")
    out.push_back({kMonitor, {"CACHE-02"}, "the " + method + " result's cacheScope is " +
                                               scope.dump().substr(0, 60) + ", not public or private"});
  return out;
}

// x-mcp-header (HDR-09): what makes one annotation invalid, or "" when it is fine. `property`
// is the annotated schema, `on_chain` whether it is reached from the root through "properties" only.
std::string header_annotation_problem(const json& property, bool on_chain) {
  const json& name = property["x-mcp-header"];
  if (!on_chain) return "is not reached from the schema root through \"properties\" alone";
  if (!name.is_string() || name.get<std::string>().empty()) return "is not a non-empty string";
  static const std::string kTchar = "!#$%&'*+-.^_`|~";
  for (unsigned char ch : name.get<std::string>())
    if (!std::isalnum(ch) && kTchar.find(static_cast<char>(ch)) == std::string::npos)
      return "\"" + name.get<std::string>().substr(0, 40) + "\" is not an HTTP header token";
  const json type = property.contains("type") ? property["type"] : json();
  if (type != "string" && type != "integer" && type != "boolean")
    return "marks a property of type " + (type.is_null() ? std::string("(none)") : type.dump().substr(0, 40)) +
           " (only string, integer and boolean may be mirrored)";
  return "";
}

// Walks a tool's inputSchema; `seen` holds the header names found so far, lower-cased.
void lint_headers(const json& node, bool on_chain, bool is_property, std::set<std::string>& seen, int depth,
                  std::vector<std::string>& problems) {
  if (depth > 64 || problems.size() >= 5) return;
  if (node.is_array()) {
    for (const auto& e : node) lint_headers(e, false, false, seen, depth + 1, problems);
    return;
  }
  if (!node.is_object()) return;
  if (node.contains("x-mcp-header")) {
    std::string why = is_property ? header_annotation_problem(node, on_chain)
                                  : std::string("is not on a property");
    if (why.empty()) {
      std::string lower = node["x-mcp-header"].get<std::string>();
      for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (!seen.insert(lower).second) why = "repeats the header name \"" + lower.substr(0, 40) + "\" (ignoring case)";
    }
    if (!why.empty()) problems.push_back("x-mcp-header " + why);
  }
  for (const auto& [key, value] : node.items()) {
    if (key == "x-mcp-header") continue;
    if (key == "properties" && value.is_object()) {
      for (const auto& [name, sub] : value.items()) lint_headers(sub, on_chain, true, seen, depth + 1, problems);
    } else if (key != "default" && key != "examples" && key != "const" && key != "enum") {
      lint_headers(value, false, false, seen, depth + 1, problems);
    }
  }
}

Findings judge_tool_headers(const json& result) {
  Findings out;
  if (!result.contains("tools") || !result["tools"].is_array()) return out;
  for (const auto& tool : result["tools"]) {
    if (!tool.is_object() || !tool.contains("inputSchema")) continue;
    std::set<std::string> seen;
    std::vector<std::string> problems;
    lint_headers(tool["inputSchema"], true, false, seen, 0, problems);
    const std::string name = tool.contains("name") ? tool["name"].dump().substr(0, 60) : std::string("(unnamed)");
    for (const auto& p : problems)
      out.push_back({kMonitor, {"HDR-09"}, "tool " + name + ": an " + p + " (a Streamable HTTP client must drop the tool)"});
  }
  return out;
}

Findings judge_result(const json& result, const std::string& method) {
  Findings out;
  if (!result.is_object()) return out;  // the schema monitor reports it
  if (!result.contains("resultType")) {
    out.push_back({kMonitor, {"RT-01", "BASE-07"},
                   "the result" + (method.empty() ? std::string() : " of " + method) + " has no resultType"});
    return out;
  }
  const json& type = result["resultType"];
  if (type == protocol::result_type::kInputRequired) return judge_input_required(result, method);
  if (type != protocol::result_type::kComplete) {
    // Extension values (task) are judged in inbound(), against what the request declared.
    if (type != "task")
      out.push_back({kMonitor, {"RT-01"}, "resultType " + type.dump().substr(0, 60) +
                                              " is neither complete nor input_required"});
    return out;
  }
  if (cacheable(method))
    for (auto& f : judge_cache_hints(result, method)) out.push_back(std::move(f));
  if (method == "tools/list") {
    for (auto& f : judge_tool_headers(result)) out.push_back(std::move(f));
    for (auto& f : judge_tool_schemas(result)) out.push_back(std::move(f));
  }
  if (method == "server/discover") {
    const json* info = nullptr;
    if (result.contains("_meta") && result["_meta"].is_object() && result["_meta"].contains(protocol::meta_key::kServerInfo))
      info = &result["_meta"][protocol::meta_key::kServerInfo];
    if (!info || !info->is_object() || !info->contains("name") || !info->contains("version"))
      out.push_back({kMonitor, {"DISC-04"}, "the server/discover result does not name the server (_meta " +
                                                std::string(protocol::meta_key::kServerInfo) + " with name and version)"});
  }
  return out;
}

Findings judge_error_code(const json& message) {
  const json& error = message["error"];
  if (!error.is_object() || !error.contains("code") || !error["code"].is_number_integer()) return {};
  const long long code = error["code"].get<long long>();
  if (code == kRetiredNotFound || code == kRetiredUrlElicitation)
    return {{kMonitor, {"ERR-04"}, "error code " + std::to_string(code) + " is retired in 2026-07-28"}};
  const bool defined = code == protocol::modern_error::kHeaderMismatch ||
                       code == protocol::modern_error::kMissingRequiredClientCapability ||
                       code == protocol::modern_error::kUnsupportedProtocolVersion;
  if (code >= kSpecRangeLow && code <= kSpecRangeHigh && !defined)
    return {{kMonitor, {"ERR-03"}, "error code " + std::to_string(code) +
                                       " lies in the spec's reserved range but is none of -32020, -32021, -32022"}};
  return {};
}

// The capability an input request's method needs from the client.
const char* needed_capability(const std::string& method) {
  if (method == "elicitation/create") return "elicitation";
  if (method == "sampling/createMessage") return "sampling";
  if (method == "roots/list") return "roots";
  return nullptr;
}

// The params.notifications flag a change notification needs (resources/updated: resourceSubscriptions).
const char* filter_key(const std::string& method) {
  if (method == "notifications/tools/list_changed") return "toolsListChanged";
  if (method == "notifications/prompts/list_changed") return "promptsListChanged";
  if (method == "notifications/resources/list_changed") return "resourcesListChanged";
  if (method == "notifications/resources/updated") return "resourceSubscriptions";
  return nullptr;
}

// _meta key names (BASE-19, BASE-20): an optional prefix of dot-separated labels (letter first,
// letter or digit last, letters, digits and hyphens between) ending in "/", then a name that, when
// not empty, starts and ends with a letter or digit (with "-", "_" and "." between).
std::string meta_key_problem(const std::string& key) {
  auto alnum = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
  const auto slash = key.rfind('/');
  const std::string name = slash == std::string::npos ? key : key.substr(slash + 1);
  if (!name.empty()) {
    if (!alnum(name.front()) || !alnum(name.back())) return "BASE-20";
    for (char ch : name)
      if (!alnum(ch) && ch != '-' && ch != '_' && ch != '.') return "BASE-20";
  }
  if (slash == std::string::npos) return "";
  const std::string prefix = key.substr(0, slash);
  std::size_t start = 0;
  for (;;) {
    const auto dot = prefix.find('.', start);
    const std::string label = prefix.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (label.empty() || !std::isalpha(static_cast<unsigned char>(label.front())) || !alnum(label.back()))
      return "BASE-19";
    for (char ch : label)
      if (!alnum(ch) && ch != '-') return "BASE-19";
    if (dot == std::string::npos) return "";
    start = dot + 1;
  }
}

// The W3C trace keys, when present, hold values of their formats (BASE-24): traceparent fully,
// tracestate and baggage as strings.
bool trace_value_ok(const std::string& key, const json& value) {
  if (key == "traceparent") {
    static const std::string kHex = "0123456789abcdef";
    if (!value.is_string()) return false;
    const std::string v = value.get<std::string>();
    if (v.size() != 55 || v[2] != '-' || v[35] != '-' || v[52] != '-') return false;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (i != 2 && i != 35 && i != 52 && kHex.find(v[i]) == std::string::npos) return false;
    return true;
  }
  if (key == "tracestate" || key == "baggage") return value.is_string();
  return true;
}

Findings judge_meta_keys(const json& message) {
  const json* meta = nullptr;
  for (const char* holder : {"params", "result"})
    if (message.contains(holder) && message[holder].is_object() && message[holder].contains("_meta") &&
        message[holder]["_meta"].is_object())
      meta = &message[holder]["_meta"];
  if (!meta) return {};
  Findings out;
  for (const auto& [key, value] : meta->items()) {
    if (std::string rule = meta_key_problem(key); !rule.empty())
      out.push_back({kMonitor, {rule}, "the _meta key \"" + key.substr(0, 80) + "\" is not a valid key name"});
    else if (!trace_value_ok(key, value))
      out.push_back({kMonitor, {"BASE-24"}, "the _meta key " + key + " holds " + value.dump().substr(0, 80) +
                                                ", not a value of its W3C format"});
    if (out.size() >= 3) break;
  }
  return out;
}

// Bounds what is kept per request: a long run forgets the oldest rather than grow without end.
constexpr std::size_t kMaxTracked = 10000;

}  // namespace

void ModernResultsMonitor::outbound(const json& message, const protocol::Classified& c) {
  if (c.kind != Kind::Request || !c.id) return;
  const auto params = message.find("params");
  if (params == message.end() || !params->is_object()) return;
  const std::string key = protocol::id_key(*c.id);
  if (declared_.size() >= kMaxTracked) declared_.clear();
  if (filters_.size() >= kMaxTracked) filters_.clear();
  const auto meta = params->find("_meta");
  if (meta != params->end() && meta->is_object()) declared_[key] = *meta;
  if (c.method == "subscriptions/listen" && params->contains("notifications"))
    filters_[key] = (*params)["notifications"];
}

json ModernResultsMonitor::declared_capabilities(const protocol::Classified& c) const {
  if (!c.id) return json::object();
  auto it = declared_.find(protocol::id_key(*c.id));
  if (it == declared_.end() || !it->second.contains(protocol::meta_key::kClientCapabilities)) return json::object();
  return it->second[protocol::meta_key::kClientCapabilities];
}

Findings ModernResultsMonitor::input_capabilities(const json& result, const protocol::Classified& c) const {
  if (!result.contains("inputRequests") || !result["inputRequests"].is_object()) return {};
  const json caps = declared_capabilities(c);
  for (const auto& [key, request] : result["inputRequests"].items()) {
    if (!request.is_object() || !request.contains("method") || !request["method"].is_string()) continue;
    const std::string method = request["method"].get<std::string>();
    const char* needed = needed_capability(method);
    if (needed && !(caps.contains(needed) && caps[needed].is_object())) {
      // Asking for roots without the capability is also not checking it before use (ROOT-06).
      std::vector<std::string> rows = {"MRTR-05", "LC-15"};
      if (method == "roots/list") rows.push_back("ROOT-06");
      return {{kMonitor, rows,
               "the input request \"" + key + "\" asks for " + method + " although the request declared no " + needed +
                   " capability (the server answers -32021 instead)"}};
    }
  }
  return judge_input_requests(result["inputRequests"], caps);
}

namespace {

// Whether the request `c` answers declared the tasks extension in its _meta (`declared`: id_key -> _meta).
bool declared_tasks_extension(const std::map<std::string, json>& declared, const protocol::Classified& c) {
  if (!c.id) return false;
  auto it = declared.find(protocol::id_key(*c.id));
  if (it == declared.end() || !it->second.contains(protocol::meta_key::kClientCapabilities)) return false;
  const json& caps = it->second[protocol::meta_key::kClientCapabilities];
  return caps.is_object() && caps.contains("extensions") && caps["extensions"].is_object() &&
         caps["extensions"].contains("io.modelcontextprotocol/tasks");
}

}  // namespace

Findings ModernResultsMonitor::notification(const Ledger& ledger, const json& message, const protocol::Classified& c) {
  const json* tag = nullptr;
  if (message.contains("params") && message["params"].is_object() && message["params"].contains("_meta") &&
      message["params"]["_meta"].is_object() && message["params"]["_meta"].contains(protocol::meta_key::kSubscriptionId))
    tag = &message["params"]["_meta"][protocol::meta_key::kSubscriptionId];
  if (c.method == "notifications/cancelled") {
    // A server cancels nothing but its own end of a subscription.
    const json& params = message.contains("params") ? message["params"] : json();
    const bool ends_listen = params.is_object() && params.contains("requestId") &&
                             filters_.count(protocol::id_key(params["requestId"])) > 0;
    if (!ends_listen)
      return {{kMonitor, {"CAN-10"}, "the server sent notifications/cancelled for something other than a "
                                     "subscriptions/listen request of the harness"}};
    return {};
  }
  if (c.method == "notifications/progress" || c.method == "notifications/message") {
    Findings out;
    if (tag)
      out.push_back({kMonitor, {"SUB-13"}, c.method + " is tagged as traffic of subscription " +
                                               tag->dump().substr(0, 60) + " (it belongs with its request only)"});
    const bool asked = std::any_of(declared_.begin(), declared_.end(),
                                   [](const auto& d) { return d.second.contains(kLogLevelKey); });
    if (c.method == "notifications/message" && !asked)
      out.push_back({kMonitor, {"META-06"}, "a log message (notifications/message) although no request asked for "
                                            "log messages with _meta " + std::string(kLogLevelKey)});
    return out;
  }
  if (!change_notification(c.method)) return {};
  if (!tag)
    return {{kMonitor, {"SUB-05"}, c.method + " carries no _meta " + std::string(protocol::meta_key::kSubscriptionId) +
                                       " (notifications travel only on a listen stream, tagged with its id)"}};
  const std::string key = protocol::id_key(*tag);
  auto it = ledger.ours.find(key);
  if (it == ledger.ours.end() || it->second.method != "subscriptions/listen")
    return {{kMonitor, {"SUB-05"}, c.method + " is tagged " + tag->dump().substr(0, 60) +
                                       ", which is not the id of a subscriptions/listen request the harness sent"}};
  if (c.method == "notifications/subscriptions/acknowledged") {
    acknowledged_.insert(key);
    return {};
  }
  if (!acknowledged_.count(key))
    return {{kMonitor, {"SUB-02"}, c.method + " on subscription " + tag->dump().substr(0, 60) +
                                       " came before that subscription's acknowledgment"}};
  auto filter = filters_.find(key);
  const char* wanted = filter_key(c.method);
  if (filter != filters_.end() && wanted && filter->second.is_object()) {
    const json& asked = filter->second.contains(wanted) ? filter->second[wanted] : json(nullptr);
    const bool requested = asked.is_boolean() ? asked.get<bool>() : (asked.is_array() && !asked.empty());
    if (!requested)
      return {{kMonitor, {"SUB-01"}, c.method + " on subscription " + tag->dump().substr(0, 60) +
                                         ", which did not ask for " + wanted}};
  }
  return {};
}

Findings ModernResultsMonitor::inbound(const Ledger& ledger, const json& message, const protocol::Classified& c,
                                       const std::string& answered_method) {
  if (ledger.peer != protocol::Sender::Server) return {};
  switch (c.kind) {
    case Kind::Request:
      return {{kMonitor, {"BASE-23", "MRTR-01", "STDIO-09", "HTTP-27"}, "the server sent a JSON-RPC request (" + c.method +
                                          "); from 2026-07-28 a server asks for input only inside results"}};
    case Kind::Notification: {
      Findings out = notification(ledger, message, c);
      for (auto& f : judge_meta_keys(message)) out.push_back(std::move(f));
      return out;
    }
    case Kind::Result: {
      Findings out = judge_result(message["result"], answered_method);
      const json type = message["result"].is_object() ? message["result"].value("resultType", json()) : json();
      if (type == protocol::result_type::kInputRequired)
        for (auto& f : input_capabilities(message["result"], c)) out.push_back(std::move(f));
      if (type == "task" && !declared_tasks_extension(declared_, c))
        out.push_back({kMonitor, {"RT-04"}, "resultType task answers a request that did not declare the extension "
                                            "io.modelcontextprotocol/tasks"});
      for (auto& f : judge_meta_keys(message)) out.push_back(std::move(f));
      return out;
    }
    case Kind::Error: return judge_error_code(message);
    default: return {};
  }
}

}  // namespace mcpspec::monitor
