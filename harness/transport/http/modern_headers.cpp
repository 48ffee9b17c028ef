#include "harness/transport/http/modern_headers.hpp"

#include "harness/protocol/era.hpp"

#include <openssl/evp.h>

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

// The value a header stands for: the sentinel =?base64?...?= decoded (OpenSSL), else as sent.
// nullopt when the sentinel's payload is not base64.
std::optional<std::string> decoded(const std::string& value) {
  const std::string open = "=?base64?", close = "?=";
  if (value.size() < open.size() + close.size() || value.compare(0, open.size(), open) != 0 ||
      value.compare(value.size() - close.size(), close.size(), close) != 0)
    return value;
  std::string b64 = value.substr(open.size(), value.size() - open.size() - close.size());
  if (b64.size() % 4 != 0) return std::nullopt;
  std::string out(b64.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(b64.data()),
                          static_cast<int>(b64.size()));
  if (n < 0) return std::nullopt;
  std::size_t pad = b64.empty() ? 0 : (b64.back() == '=') + (b64.size() > 1 && b64[b64.size() - 2] == '=');
  out.resize(static_cast<std::size_t>(n) - pad);
  return out;
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
    auto value = decoded(n);
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
