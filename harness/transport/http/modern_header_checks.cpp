#include "harness/transport/http/modern_header_checks.hpp"

#include "harness/protocol/era.hpp"
#include "harness/transport/http/modern_headers.hpp"

#include <algorithm>

namespace mcpspec::transport::http {

using nlohmann::json;

namespace {

const json* meta_version(const json& body) {
  if (!body.is_object() || !body.contains("params") || !body["params"].is_object()) return nullptr;
  const json& p = body["params"];
  if (!p.contains("_meta") || !p["_meta"].is_object()) return nullptr;
  auto v = p["_meta"].find(protocol::meta_key::kProtocolVersion);
  return v == p["_meta"].end() || !v->is_string() ? nullptr : &*v;
}

// The body value Mcp-Name must carry for a method ("" when the method has none).
std::string name_source(const json& body) {
  const std::string method = body.value("method", "");
  const char* key = method == "tools/call" || method == "prompts/get" ? "name" : method == "resources/read" ? "uri" : nullptr;
  if (!key || !body.contains("params") || !body["params"].is_object()) return "";
  auto v = body["params"].find(key);
  return v != body["params"].end() && v->is_string() ? v->get<std::string>() : "";
}

}  // namespace

std::map<std::string, std::map<std::string, std::string>> x_mcp_headers_of(const json& list_result) {
  std::map<std::string, std::map<std::string, std::string>> out;
  if (!list_result.is_object() || !list_result.contains("tools") || !list_result["tools"].is_array()) return out;
  for (const auto& tool : list_result["tools"]) {
    if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) continue;
    const json* props = tool.contains("inputSchema") && tool["inputSchema"].is_object() && tool["inputSchema"].contains("properties") &&
                                tool["inputSchema"]["properties"].is_object()
                            ? &tool["inputSchema"]["properties"]
                            : nullptr;
    if (!props) continue;
    for (const auto& [arg, schema] : props->items())
      if (schema.is_object() && schema.contains("x-mcp-header") && schema["x-mcp-header"].is_string())
        out[tool["name"].get<std::string>()][arg] = schema["x-mcp-header"].get<std::string>();
  }
  return out;
}

std::vector<HeaderProblem> check_param_headers(const json& body, const std::map<std::string, std::string>& annotations,
                                               const std::function<std::string(const std::string&)>& header) {
  std::vector<HeaderProblem> out;
  const json& args = body.contains("params") && body["params"].is_object() && body["params"].contains("arguments")
                         ? body["params"]["arguments"]
                         : json();
  for (const auto& [arg, suffix] : annotations) {
    const std::string name = "Mcp-Param-" + suffix;
    const std::string sent = header(name);
    const bool given = args.is_object() && args.contains(arg) && !args[arg].is_null();
    if (!given) {
      if (!sent.empty()) out.push_back({{"HDR-08"}, name + " is sent although argument \"" + arg + "\" is absent or null"});
      continue;
    }
    if (sent.empty()) {
      out.push_back({{"HDR-08"}, "argument \"" + arg + "\" is marked x-mcp-header but no " + name + " header mirrors it"});
      continue;
    }
    const json& v = args[arg];
    auto value = decoded_header_value(sent);
    bool plain = std::all_of(sent.begin(), sent.end(), [](char ch) { return ch >= 0x20 && ch < 0x7F; }) &&
                 sent.front() != ' ' && sent.back() != ' ';
    bool same = false;
    if (!value || !plain) {
      same = false;
    } else if (v.is_string()) {
      same = *value == v.get<std::string>();
    } else if (v.is_boolean()) {
      same = *value == (v.get<bool>() ? "true" : "false");
    } else if (v.is_number_integer()) {
      same = *value == std::to_string(v.get<long long>());
    }
    if (!same)
      out.push_back({{"HDR-11"}, name + ": \"" + sent + "\" is not argument \"" + arg + "\" = " + v.dump() + " encoded as required"});
  }
  return out;
}

std::optional<std::string> modern_post_version(const json& body, const std::string& version_header) {
  if (const json* v = meta_version(body); v && protocol::is_modern(v->get_ref<const std::string&>())) return v->get<std::string>();
  if (protocol::is_modern(version_header)) return version_header;
  return std::nullopt;
}

std::vector<HeaderProblem> check_modern_headers(const json& body, const std::function<std::string(const char*)>& header) {
  std::vector<HeaderProblem> out;
  if (!body.is_object() || !body.contains("method")) return out;  // batches and responses are judged elsewhere
  const std::string method = body.value("method", "");
  const std::string version = header("MCP-Protocol-Version");
  if (version.empty()) {
    out.push_back({{"HTTP-PV-01"}, "the POST of " + method + " carries no MCP-Protocol-Version header"});
  } else if (const json* v = meta_version(body); v && *v != version) {
    out.push_back({{"HTTP-PV-02"}, "MCP-Protocol-Version " + version + " differs from the body's _meta version " +
                                       v->get<std::string>()});
  }
  if (!body.contains("id")) return out;  // Mcp-Method and Mcp-Name are required on requests
  const std::string m = header("Mcp-Method");
  if (m.empty())
    out.push_back({{"HDR-01", "HTTP-29"}, "the POST of " + method + " carries no Mcp-Method header"});
  else if (m != method)
    out.push_back({{"HDR-01", "HTTP-29"}, "Mcp-Method \"" + m + "\" differs from the body's method \"" + method + "\""});
  const std::string source = name_source(body);
  if (!source.empty()) {
    const std::string n = header("Mcp-Name");
    auto value = decoded_header_value(n);
    const bool plain = !n.empty() && n.front() != ' ' && n.back() != ' ' &&
                       std::all_of(n.begin(), n.end(), [](char ch) { return ch >= 0x20 && ch < 0x7F; });
    if (n.empty())
      out.push_back({{"HDR-01", "HTTP-29"}, "the POST of " + method + " carries no Mcp-Name header"});
    else if (!plain)
      out.push_back({{"HDR-02"}, "Mcp-Name is not plain ASCII; such a value goes in the =?base64?...?= sentinel"});
    else if (!value)
      out.push_back({{"HDR-02"}, "Mcp-Name \"" + n + "\" is not valid =?base64?...?= encoding"});
    else if (*value != source)
      out.push_back({{"HDR-01", "HTTP-29"}, "Mcp-Name \"" + n + "\" differs from the body's \"" + source + "\""});
  }
  return out;
}

}  // namespace mcpspec::transport::http
