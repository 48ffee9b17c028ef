#include "modern_headers_check.hpp"

#include <boost/beast/core/detail/base64.hpp>

#include <cstdlib>
#include <set>

using nlohmann::json;

namespace httpfront {
namespace {

const std::set<std::string> kLegacyVersions = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
constexpr const char* kVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
const std::string kSentinelStart = "=?base64?", kSentinelEnd = "?=";

// Header values travel as visible ASCII with inner spaces or tabs; anything else needs the sentinel.
bool valid_header_chars(const std::string& v) {
  for (unsigned char c : v)
    if (!(c == ' ' || c == '\t' || (c >= 0x21 && c <= 0x7e))) return false;
  return true;
}

// The value a header stands for: a =?base64?...?= sentinel decoded (nothing when its Base64 is
// broken), any other value as it is.
std::optional<std::string> decode(const std::string& v, bool decode_sentinel) {
  if (!decode_sentinel || v.size() < kSentinelStart.size() + kSentinelEnd.size() || v.rfind(kSentinelStart, 0) != 0 ||
      v.compare(v.size() - kSentinelEnd.size(), kSentinelEnd.size(), kSentinelEnd) != 0)
    return v;
  std::string b64 = v.substr(kSentinelStart.size(), v.size() - kSentinelStart.size() - kSentinelEnd.size());
  if (b64.size() % 4 != 0) return std::nullopt;
  namespace base64 = boost::beast::detail::base64;
  std::string out(base64::decoded_size(b64.size()), '\0');
  auto [written, read] = base64::decode(out.data(), b64.data(), b64.size());
  if (b64.size() - read > 2 || b64.find_first_not_of('=', read) != std::string::npos) return std::nullopt;
  out.resize(written);
  return out;
}

void collect(const json& schema, std::vector<std::string>& path, std::vector<ParamHeader>& out) {
  if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].is_object()) return;
  for (const auto& [name, sub] : schema["properties"].items()) {
    path.push_back(name);
    if (sub.is_object() && sub.contains("x-mcp-header") && sub["x-mcp-header"].is_string())
      out.push_back({path, sub["x-mcp-header"].get<std::string>()});
    collect(sub, path, out);
    path.pop_back();
  }
}

const json* at_path(const json& args, const std::vector<std::string>& path) {
  const json* v = &args;
  for (const auto& key : path) {
    if (!v->is_object() || !v->contains(key)) return nullptr;
    v = &(*v)[key];
  }
  return v;
}

// Whether a header value stands for this argument value: a string as it is, an integer compared
// as a number (so "42.0" is 42), a boolean as true or false.
bool same_value(const std::string& header, const json& value) {
  if (value.is_string()) return header == value.get<std::string>();
  if (value.is_boolean()) return header == (value.get<bool>() ? "true" : "false");
  if (value.is_number()) {
    char* end = nullptr;
    double d = std::strtod(header.c_str(), &end);
    return !header.empty() && end && *end == '\0' && d == value.get<double>();
  }
  return false;
}

}  // namespace

void learn_tool_headers(const json& list_result, ToolHeaders& into) {
  if (!list_result.is_object() || !list_result.contains("tools") || !list_result["tools"].is_array()) return;
  for (const auto& tool : list_result["tools"]) {
    if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) continue;
    std::vector<ParamHeader> found;
    std::vector<std::string> path;
    if (tool.contains("inputSchema")) collect(tool["inputSchema"], path, found);
    into[tool["name"].get<std::string>()] = std::move(found);
  }
}

bool is_modern_message(const json& body, const std::string& version_header) {
  if (!body.is_object()) return false;
  if (body.contains("params") && body["params"].is_object() && body["params"].contains("_meta") &&
      body["params"]["_meta"].is_object()) {
    const json& meta = body["params"]["_meta"];
    if (meta.contains(kVersionKey) || meta.contains(kCapabilitiesKey)) return true;
  }
  // Dates compare as text: anything after the last legacy version is modern.
  return !version_header.empty() && !kLegacyVersions.count(version_header) && version_header > "2025-11-25";
}

std::optional<std::string> header_mismatch(const json& body, const HeaderLookup& header,
                                           const std::vector<ParamHeader>& tool, const HeaderChecks& checks) {
  // The header rules are about requests and notifications: a body that is neither is answered by
  // the body rules (-32600), whatever its headers.
  if (!body.is_object() || !body.contains("method") || !body["method"].is_string()) return std::nullopt;
  const std::string method = body["method"].get<std::string>();
  const json params = body.contains("params") && body["params"].is_object() ? body["params"] : json::object();
  // A standard header must be present, of valid characters, and stand for the body's value.
  auto compare = [&](const std::string& name, const std::string& expected) -> std::optional<std::string> {
    auto got = header(name);
    if (!got) return name + " is missing";
    if (!valid_header_chars(*got)) return name + " holds characters a header value may not carry";
    auto value = decode(*got, checks.decode);
    if (!value) return name + " is a =?base64?...?= value whose Base64 is broken";
    if (*value != expected) return name + " says \"" + *value + "\" but the body says \"" + expected + "\"";
    return std::nullopt;
  };
  if (checks.version) {
    const json meta = params.contains("_meta") && params["_meta"].is_object() ? params["_meta"] : json::object();
    if (!header("MCP-Protocol-Version")) return std::string("MCP-Protocol-Version is missing");
    // Without a version in _meta there is nothing to compare: the backend refuses the body (-32602).
    if (meta.contains(kVersionKey) && meta[kVersionKey].is_string())
      if (auto p = compare("MCP-Protocol-Version", meta[kVersionKey].get<std::string>())) return p;
  }
  if (checks.method)
    if (auto p = compare("Mcp-Method", method)) return p;
  const char* name_key = method == "tools/call" || method == "prompts/get" ? "name"
                         : method == "resources/read"                      ? "uri"
                                                                           : nullptr;
  if (checks.name && name_key && params.contains(name_key) && params[name_key].is_string())
    if (auto p = compare("Mcp-Name", params[name_key].get<std::string>())) return p;
  if (checks.params && method == "tools/call") {
    const json args = params.contains("arguments") ? params["arguments"] : json::object();
    for (const auto& p : tool) {
      const json* v = at_path(args, p.path);
      const std::string name = "Mcp-Param-" + p.header;
      auto got = header(name);
      if (!v || v->is_null()) continue;  // no value, no header expected
      if (!got) return name + " is missing while the argument is in the body";
      if (!valid_header_chars(*got)) return name + " holds characters a header value may not carry";
      auto decoded = decode(*got, checks.decode);
      if (!decoded) return name + " is a =?base64?...?= value whose Base64 is broken";
      if (!same_value(*decoded, *v)) return name + " says \"" + *decoded + "\" but the argument is " + v->dump();
    }
  }
  return std::nullopt;
}

}  // namespace httpfront
