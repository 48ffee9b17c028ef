#include "harness/cli/mcp_config.hpp"

#include "harness/cli/commands.hpp"
#include "harness/util/did_you_mean.hpp"
#include "reports/run_facts.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;

namespace mcpspec::cli {

namespace {

using json = nlohmann::ordered_json;

bool env_name(const std::string& s) {
  static const std::regex kName("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(s, kName);
}

// The file's variables: VS Code's ${env:NAME} and ${workspaceFolder}, Claude Code's ${NAME} and
// ${NAME:-default}. VS Code's ${input:...} needs VS Code to prompt for it: an error here.
class Expander {
 public:
  Expander(std::string file, std::string workspace) : file_(std::move(file)), workspace_(std::move(workspace)) {}

  std::string operator()(const std::string& text, const std::string& where) const {
    std::string out;
    std::size_t pos = 0;
    while (true) {
      const auto open = text.find("${", pos);
      if (open == std::string::npos) return out + text.substr(pos);
      const auto close = text.find('}', open);
      if (close == std::string::npos) fail(where, "\"${\" without a closing \"}\"");
      out += text.substr(pos, open - pos) + value(text.substr(open + 2, close - open - 2), where);
      pos = close + 1;
    }
  }

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw UsageError(fmt::format("{}: {}: {}", file_, where, what));
  }

 private:
  std::string value(const std::string& var, const std::string& where) const {
    if (var == "workspaceFolder") return workspace_;
    if (var.rfind("input:", 0) == 0)
      fail(where, "${" + var + "} is asked of the user by VS Code; put the value in the file or test the server with --server/--url");
    std::string name = var.rfind("env:", 0) == 0 ? var.substr(4) : var;
    std::optional<std::string> fallback;
    if (auto dash = name.find(":-"); dash != std::string::npos) {
      fallback = name.substr(dash + 2);
      name = name.substr(0, dash);
    }
    if (!env_name(name)) fail(where, "${" + var + "} is not a variable mcpspec knows (${env:NAME}, ${NAME}, ${NAME:-default}, ${workspaceFolder})");
    if (const char* v = std::getenv(name.c_str())) return v;
    if (fallback) return *fallback;
    fail(where, "${" + var + "}: the environment variable " + name + " is not set");
  }

  std::string file_, workspace_;
};

std::string text_at(const json& entry, const char* key, const std::string& where, const Expander& expand) {
  if (!entry.contains(key)) return "";
  if (!entry[key].is_string()) expand.fail(where + "/" + key, "must be a string");
  return expand(entry[key].get<std::string>(), where + "/" + key);
}

// name -> value pairs of an object of strings ("env", "headers").
std::vector<std::pair<std::string, std::string>> pairs_at(const json& entry, const char* key, const std::string& where,
                                                          const Expander& expand) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!entry.contains(key)) return out;
  if (!entry[key].is_object()) expand.fail(where + "/" + key, "must be an object of strings");
  for (const auto& [k, v] : entry[key].items()) {
    if (!v.is_string()) expand.fail(where + "/" + key + "/" + k, "must be a string");
    out.emplace_back(k, expand(v.get<std::string>(), where + "/" + key + "/" + k));
  }
  return out;
}

ConfiguredServer server_of(const std::string& name, const json& entry, const std::string& where, const Expander& expand,
                           const std::string& workspace) {
  if (!entry.is_object()) expand.fail(where, "must be an object with \"command\" (stdio) or \"url\" (http, sse)");
  ConfiguredServer s;
  s.name = name;
  std::string type = text_at(entry, "type", where, expand);
  const std::string command = text_at(entry, "command", where, expand);
  s.url = text_at(entry, "url", where, expand);
  if (type.empty()) type = !s.url.empty() && command.empty() ? "http" : "stdio";
  if (type == "streamable-http" || type == "streamableHttp") type = "http";
  if (type == "stdio") {
    if (command.empty()) expand.fail(where, "a stdio server needs \"command\"");
    std::string line = "cd " + reports::shell_quote(workspace) + " &&";
    for (const auto& [k, v] : pairs_at(entry, "env", where, expand)) {
      if (!env_name(k)) expand.fail(where + "/env/" + k, "is not a valid environment variable name");
      line += " " + k + "=" + reports::shell_quote(v);
    }
    line += " exec " + reports::shell_word(command);
    if (entry.contains("args")) {
      if (!entry["args"].is_array()) expand.fail(where + "/args", "must be an array of strings");
      for (std::size_t i = 0; i < entry["args"].size(); ++i) {
        const auto& a = entry["args"][i];
        const std::string at = fmt::format("{}/args/{}", where, i);
        if (!a.is_string()) expand.fail(at, "must be a string");
        line += " " + reports::shell_word(expand(a.get<std::string>(), at));
      }
    }
    s.command = line;
    s.transport = transport::TransportKind::Stdio;
    return s;
  }
  if (type != "http" && type != "sse")
    expand.fail(where + "/type", "\"" + type + "\" is not a type mcpspec can test (stdio, http, sse)");
  if (s.url.empty()) expand.fail(where, "an " + type + " server needs \"url\"");
  if (s.url.rfind("http://", 0) != 0)
    expand.fail(where + "/url", "\"" + s.url + "\": mcpspec reaches servers over plain http:// only (no TLS)");
  s.transport = type == "sse" ? transport::TransportKind::Sse : transport::TransportKind::Http;
  s.headers = pairs_at(entry, "headers", where, expand);
  return s;
}

}  // namespace

std::vector<ConfiguredServer> read_mcp_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("--config " + path + ": cannot open the file");
  json doc;
  try {
    doc = json::parse(in, nullptr, true, /*ignore_comments=*/true);  // VS Code's files may have comments
  } catch (const json::parse_error& e) {
    throw UsageError(fmt::format("{}: not valid JSON ({})", path, e.what()));
  }
  // VS Code's ${workspaceFolder} is the folder above .vscode; the other files live in theirs.
  fs::path dir = fs::absolute(path).parent_path();
  if (dir.filename() == ".vscode") dir = dir.parent_path();
  const Expander expand(path, dir.string());
  const char* key = doc.is_object() && doc.contains("mcpServers") ? "mcpServers"
                    : doc.is_object() && doc.contains("servers")  ? "servers"
                                                                   : nullptr;
  if (!key)
    expand.fail("/", "no \"mcpServers\" (.mcp.json, claude_desktop_config.json) or \"servers\" (.vscode/mcp.json) object");
  if (!doc[key].is_object()) expand.fail(std::string("/") + key, "must be an object of servers by name");
  std::vector<ConfiguredServer> out;
  for (const auto& [name, entry] : doc[key].items())
    out.push_back(server_of(name, entry, std::string("/") + key + "/" + name, expand, dir.string()));
  if (out.empty()) expand.fail(std::string("/") + key, "lists no server");
  return out;
}

ConfiguredServer configured_server(const std::vector<ConfiguredServer>& servers, const std::string& name,
                                   const std::string& path) {
  std::vector<std::string> names;
  for (const auto& s : servers) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  throw UsageError(fmt::format("--name {}: {} has no server of that name{}; its servers: {}", name, path,
                               util::did_you_mean(name, names), fmt::join(names, ", ")));
}

}  // namespace mcpspec::cli
