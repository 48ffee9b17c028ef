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

// A received header value that may travel as it is: printable ASCII, no white space at either end
// (anything else had to be sent in the =?base64?...?= sentinel).
bool plain_ascii(const std::string& v) {
  return !v.empty() && v.front() != ' ' && v.back() != ' ' &&
         std::all_of(v.begin(), v.end(), [](char ch) { return ch >= 0x20 && ch < 0x7F; });
}

std::string dotted(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& k : path) out += (out.empty() ? "" : ".") + k;
  return out;
}

}  // namespace

std::vector<HeaderProblem> check_param_headers(const json& body, const std::vector<ParamHeader>& annotations,
                                               const std::function<std::string(const std::string&)>& header) {
  std::vector<HeaderProblem> out;
  const json& args = body.contains("params") && body["params"].is_object() && body["params"].contains("arguments")
                         ? body["params"]["arguments"]
                         : json();
  for (const auto& annotation : annotations) {
    const std::string name = "Mcp-Param-" + annotation.name, arg = dotted(annotation.path);
    const std::string sent = header(name);
    const json* v = annotated_argument(args, annotation);
    if (!v || v->is_null()) {
      if (!sent.empty()) out.push_back({{"HDR-08"}, name + " is sent although argument \"" + arg + "\" is absent or null"});
      continue;
    }
    auto expected = param_header_text(*v);
    // A value that cannot be mirrored (a fraction, an object, an array) is only there when the
    // annotation is invalid (on a number or a structure) or the argument has the wrong type: no
    // header is owed for it.
    if (sent.empty() && !expected) continue;
    if (sent.empty()) {
      out.push_back({{"HDR-08"}, "argument \"" + arg + "\" is marked x-mcp-header but no " + name + " header mirrors it"});
      continue;
    }
    auto value = decoded_header_value(sent);
    if (!plain_ascii(sent) || !value || !expected || *value != *expected)
      out.push_back({{"HDR-11"}, name + ": \"" + sent + "\" is not argument \"" + arg + "\" = " + v->dump() + " encoded as required"});
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
  if (auto name_source = mcp_name_source(method, body.value("params", json::object()))) {
    const std::string& source = *name_source;
    // A task's routing header is the tasks extension's rule; the others are the core's.
    const std::vector<std::string> rule =
        std::string(mcp_name_member(method)) == "taskId" ? std::vector<std::string>{"XTASK-26"} : std::vector<std::string>{"HDR-01", "HTTP-29"};
    const std::string n = header("Mcp-Name");
    auto value = decoded_header_value(n);
    if (n.empty())
      out.push_back({rule, "the POST of " + method + " carries no Mcp-Name header"});
    else if (!plain_ascii(n))
      out.push_back({{"HDR-02"}, "Mcp-Name is not plain ASCII; such a value goes in the =?base64?...?= sentinel"});
    else if (!value)
      out.push_back({{"HDR-02"}, "Mcp-Name \"" + n + "\" is not valid =?base64?...?= encoding"});
    else if (*value != source)
      out.push_back({rule, "Mcp-Name \"" + n + "\" differs from the body's \"" + source + "\""});
  }
  return out;
}

}  // namespace mcpspec::transport::http
