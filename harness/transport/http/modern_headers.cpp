#include "harness/transport/http/modern_headers.hpp"

#include "harness/protocol/era.hpp"

#include <boost/beast/core/detail/base64.hpp>

namespace mcpspec::transport::http {

using nlohmann::json;

namespace {

constexpr const char* kSentinelStart = "=?base64?";
constexpr const char* kSentinelEnd = "?=";

// "=?base64?...?=": the form a header value takes when it cannot travel as it is.
bool is_sentinel(const std::string& v) {
  const std::string start = kSentinelStart, end = kSentinelEnd;
  return v.size() >= start.size() + end.size() && v.compare(0, start.size(), start) == 0 &&
         v.compare(v.size() - end.size(), end.size(), end) == 0;
}

bool plain_header_safe(const std::string& v) {
  if (v.empty()) return true;
  if (v.front() == ' ' || v.front() == '\t' || v.back() == ' ' || v.back() == '\t') return false;
  for (unsigned char c : v)
    if (!(c == ' ' || c == '\t' || (c >= 0x21 && c <= 0x7E))) return false;
  return !is_sentinel(v);
}

void collect(const json& schema, std::vector<std::string>& path, std::vector<ParamHeader>& out) {
  if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].is_object()) return;
  for (const auto& [key, sub] : schema["properties"].items()) {
    if (!sub.is_object()) continue;
    path.push_back(key);
    if (sub.contains("x-mcp-header") && sub["x-mcp-header"].is_string())
      out.push_back({path, sub["x-mcp-header"].get<std::string>()});
    if (path.size() < 32) collect(sub, path, out);
    path.pop_back();
  }
}

}  // namespace

const char* mcp_name_member(const std::string& method) {
  if (method == "tools/call" || method == "prompts/get") return "name";
  if (method == "resources/read") return "uri";
  // The tasks extension routes the requests about one task by its id (tasks/list names none).
  if (method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel") return "taskId";
  return nullptr;
}

std::optional<std::string> mcp_name_source(const std::string& method, const json& params) {
  const char* key = mcp_name_member(method);
  if (!key || !params.is_object() || !params.contains(key) || !params[key].is_string()) return std::nullopt;
  return params[key].get<std::string>();
}

std::optional<std::string> param_header_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return v.dump();
  // 42.0 is the integer 42 (within the range the spec allows for mirrored integers).
  constexpr double kMaxSafe = 9007199254740991.0;
  if (v.is_number_float() && v.get<double>() >= -kMaxSafe && v.get<double>() <= kMaxSafe &&
      v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())))
    return std::to_string(static_cast<long long>(v.get<double>()));
  return std::nullopt;
}

const json* annotated_argument(const json& arguments, const ParamHeader& annotation) {
  const json* cur = &arguments;
  for (const auto& k : annotation.path) {
    if (!cur->is_object() || !cur->contains(k)) return nullptr;
    cur = &(*cur)[k];
  }
  return cur;
}

std::string encoded_header_value(const std::string& value) {
  if (plain_header_safe(value)) return value;
  namespace b64 = boost::beast::detail::base64;
  std::string out(b64::encoded_size(value.size()), '\0');
  out.resize(b64::encode(out.data(), value.data(), value.size()));
  return kSentinelStart + out + kSentinelEnd;
}

std::optional<std::string> decoded_header_value(const std::string& value) {
  if (!is_sentinel(value)) return value;
  const std::size_t start = std::string(kSentinelStart).size(), end = std::string(kSentinelEnd).size();
  const std::string b64 = value.substr(start, value.size() - start - end);
  if (b64.size() % 4 != 0) return std::nullopt;
  namespace b64c = boost::beast::detail::base64;
  std::string out(b64c::decoded_size(b64.size()), '\0');
  auto [written, read] = b64c::decode(out.data(), b64.data(), b64.size());
  // Decoding stops at the padding or at the first character that is not base64: only up to two
  // '=' may follow.
  if (b64.size() - read > 2 || b64.find_first_not_of('=', read) != std::string::npos) return std::nullopt;
  out.resize(written);
  return out;
}

void learn_param_headers(const json& result, ToolParamHeaders& into) {
  if (!result.is_object() || !result.contains("tools") || !result["tools"].is_array()) return;
  for (const auto& tool : result["tools"]) {
    if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) continue;
    std::vector<ParamHeader> found;
    std::vector<std::string> path;
    if (tool.contains("inputSchema")) collect(tool["inputSchema"], path, found);
    into[tool["name"].get<std::string>()] = std::move(found);
  }
}

Headers modern_request_headers(const json& message, const ToolParamHeaders& tools, const std::string& connection_version) {
  Headers h;
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) return h;
  static const json kNoParams = json::object();
  const auto found = message.find("params");
  const json& params = found != message.end() && found->is_object() ? *found : kNoParams;
  // The version the message names in _meta (even one no server knows: the -32022 probes), else
  // the version of the connection's modern requests so far: a deliberately incomplete message (no
  // _meta, params not an object, a notification) still carries the headers every POST must.
  std::string version = connection_version;
  if (const auto meta = params.find("_meta"); meta != params.end() && meta->is_object()) {
    const auto v = meta->find(protocol::meta_key::kProtocolVersion);
    if (v != meta->end() && v->is_string() && (protocol::is_modern(v->get<std::string>()) || !connection_version.empty() ||
                                               meta->contains(protocol::meta_key::kClientCapabilities)))
      version = v->get<std::string>();
  }
  if (version.empty()) return h;
  const std::string method = message["method"].get<std::string>();
  h.emplace_back("MCP-Protocol-Version", version);
  h.emplace_back("Mcp-Method", method);
  if (auto name = mcp_name_source(method, params)) h.emplace_back("Mcp-Name", encoded_header_value(*name));
  if (method != "tools/call" || !params.contains("name") || !params["name"].is_string()) return h;
  auto tool = tools.find(params["name"].get<std::string>());
  if (tool == tools.end() || !params.contains("arguments")) return h;
  for (const auto& p : tool->second) {
    const json* v = annotated_argument(params["arguments"], p);
    if (!v || v->is_null()) continue;  // absent or null: no header
    if (auto text = param_header_text(*v)) h.emplace_back("Mcp-Param-" + p.name, encoded_header_value(*text));
  }
  return h;
}

}  // namespace mcpspec::transport::http
