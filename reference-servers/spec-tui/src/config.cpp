#include "config.hpp"

#include <toml++/toml.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace spectui {

namespace fs = std::filesystem;

namespace {

std::string where(const std::string& origin, const toml::node& node) {
  const auto& src = node.source();
  return origin + ":" + std::to_string(src.begin.line) + ":" + std::to_string(src.begin.column);
}

[[noreturn]] void fail_at(const std::string& origin, const toml::node& node, const std::string& message) {
  throw ConfigError(where(origin, node) + ": " + message);
}

// Refuses keys we do not know: a typo ("comand") would otherwise be silently ignored.
void only_keys(const std::string& origin, const toml::table& table, const std::string& section,
               const std::set<std::string>& known) {
  for (const auto& [key, value] : table) {
    if (!known.count(std::string(key.str()))) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      fail_at(origin, value, "unknown key " + section + std::string(key.str()) + " (known: " + list + ")");
    }
  }
}

std::string get_string(const std::string& origin, const toml::table& t, const char* key, const std::string& section) {
  const toml::node* n = t.get(key);
  if (!n->is_string()) fail_at(origin, *n, section + key + " must be a string");
  std::string v = n->value<std::string>().value_or("");
  if (v.empty()) fail_at(origin, *n, section + key + " must not be empty");
  return v;
}

}  // namespace

Config parse_config(const std::string& text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& src = e.source();
    throw ConfigError(origin + ":" + std::to_string(src.begin.line) + ":" + std::to_string(src.begin.column) +
                      ": not valid TOML: " + std::string(e.description()));
  }
  Config c;
  c.source = origin;
  only_keys(origin, root, "", {"mcp", "workflow", "log"});

  if (const toml::node* mcp_node = root.get("mcp")) {
    const toml::table* mcp = mcp_node->as_table();
    if (!mcp) fail_at(origin, *mcp_node, "[mcp] must be a table");
    only_keys(origin, *mcp, "mcp.", {"transport", "command", "args", "endpoint", "timeout_seconds", "retries"});
    if (mcp->contains("transport")) {
      c.transport = get_string(origin, *mcp, "transport", "mcp.");
      if (c.transport != "stdio" && c.transport != "http")
        fail_at(origin, *mcp->get("transport"), "mcp.transport must be \"stdio\" or \"http\", got \"" + c.transport + "\"");
    }
    if (mcp->contains("command")) c.command = get_string(origin, *mcp, "command", "mcp.");
    if (const toml::node* args = mcp->get("args")) {
      const toml::array* arr = args->as_array();
      if (!arr) fail_at(origin, *args, "mcp.args must be an array of strings");
      for (const auto& a : *arr) {
        if (!a.is_string()) fail_at(origin, a, "mcp.args must be an array of strings");
        c.args.push_back(a.value<std::string>().value_or(""));
      }
    }
    if (mcp->contains("endpoint")) c.endpoint = get_string(origin, *mcp, "endpoint", "mcp.");
    if (const toml::node* t = mcp->get("timeout_seconds")) {
      auto seconds = t->value<double>();
      if (!(t->is_number()) || !seconds || !std::isfinite(*seconds) || *seconds <= 0 || *seconds > 86400)
        fail_at(origin, *t, "mcp.timeout_seconds must be a number of seconds above 0 and at most 86400");
      c.timeout = std::chrono::milliseconds(static_cast<long long>(std::llround(*seconds * 1000)));
    }
    if (const toml::node* r = mcp->get("retries")) {
      auto n = r->value<int64_t>();
      if (!r->is_integer() || !n || *n < 0 || *n > 10) fail_at(origin, *r, "mcp.retries must be an integer from 0 to 10");
      c.retries = static_cast<int>(*n);
    }
    if (c.transport == "http" && c.endpoint.empty())
      throw ConfigError(origin + ": [mcp] transport = \"http\" needs an endpoint, e.g. endpoint = \"http://localhost:8080/mcp\"");
  }
  if (const toml::node* wf_node = root.get("workflow")) {
    const toml::table* wf = wf_node->as_table();
    if (!wf) fail_at(origin, *wf_node, "[workflow] must be a table");
    only_keys(origin, *wf, "workflow.", {"spec_directory"});
    if (wf->contains("spec_directory")) c.spec_directory = get_string(origin, *wf, "spec_directory", "workflow.");
  }
  if (const toml::node* log_node = root.get("log")) {
    const toml::table* log = log_node->as_table();
    if (!log) fail_at(origin, *log_node, "[log] must be a table");
    only_keys(origin, *log, "log.", {"file"});
    if (log->contains("file")) c.log_file = get_string(origin, *log, "file", "log.");
  }
  return c;
}

Config load_config_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file.string() + ": cannot read the configuration file");
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().size() > 1024 * 1024) throw ConfigError(file.string() + ": larger than 1 MiB, not a configuration");
  return parse_config(text.str(), file.string());
}

namespace {

fs::path xdg_dir(const char* variable, const char* fallback) {
  const char* v = std::getenv(variable);
  if (v && *v && fs::path(v).is_absolute()) return v;
  const char* home = std::getenv("HOME");
  return fs::path(home && *home ? home : "/tmp") / fallback;
}

}  // namespace

std::optional<fs::path> default_config_path() {
  const char* env = std::getenv("SPEC_TUI_CONFIG");
  if (env && *env) return fs::path(env);
  std::error_code ec;
  if (fs::exists("spec-tui.toml", ec)) return fs::path("spec-tui.toml");
  fs::path user = xdg_dir("XDG_CONFIG_HOME", ".config") / "spec-tui" / "config.toml";
  if (fs::exists(user, ec)) return user;
  return std::nullopt;
}

fs::path default_log_path() { return xdg_dir("XDG_STATE_HOME", ".local/state") / "spec-tui" / "spec-tui.log"; }

}  // namespace spectui
