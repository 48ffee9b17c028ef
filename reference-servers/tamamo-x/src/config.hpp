// tamamo-x.config.json: the MCP servers to discover (the `mcpServers` shape of .mcp.json) and the
// grouping settings. Loading checks every field and names the file and JSON pointer of a bad one.
#pragma once

#include "mcpref/json.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tamamo {

inline constexpr const char* kConfigFileName = "tamamo-x.config.json";
inline constexpr const char* kVersion = "1.0.0";

// A configuration (or rules, or groups) file that is missing, unreadable or malformed; what()
// names the file and the place in it.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class UpstreamTransport { Stdio, Http, WebSocket };
const char* transport_name(UpstreamTransport transport);

struct UpstreamConfig {
  std::string name;
  UpstreamTransport transport = UpstreamTransport::Stdio;
  // stdio: argv = command + args, run directly (PATH searched); or `shell` run by /bin/sh -c
  // (servers given on the command line as one string).
  std::vector<std::string> argv;
  std::string shell;
  std::map<std::string, std::string> env;
  std::string url;  // http and websocket
  std::optional<std::chrono::milliseconds> timeout;  // per server; else the discovery default
};

struct GroupingSettings {
  std::string rules_file;            // relative to the config's folder; empty: none
  double schema_similarity = 0.5;    // Jaccard threshold over input property names
};

struct Config {
  std::vector<UpstreamConfig> servers;  // in file order (the grouping order)
  std::chrono::milliseconds discovery_timeout{10000};
  std::chrono::milliseconds call_timeout{30000};
  GroupingSettings grouping;
};

// Parses one mcpServers entry ("where" names it in errors, e.g. "tamamo-x.config.json:
// /mcpServers/db").
UpstreamConfig parse_upstream(const std::string& name, const mcpref::Json& entry, const std::string& where);
Config parse_config(const mcpref::Json& document, const std::string& where);
Config load_config(const std::filesystem::path& file);

// Reads and parses a JSON file of at most `max_bytes` (symlinks refused). ConfigError names the
// file; `hint` is added when it cannot be read (for example which command creates it).
mcpref::Json read_json_file(const std::filesystem::path& file, std::size_t max_bytes, const std::string& hint);
mcpref::Json config_to_json(const Config& config);

// "NAME=SHELL COMMAND" (from --server) and "NAME=[\"argv\", ...]" (from --server-argv).
UpstreamConfig upstream_from_shell_option(const std::string& option);
UpstreamConfig upstream_from_argv_option(const std::string& option);
// "NAME=ws://..." or "NAME=http://..." (from --server-url).
UpstreamConfig upstream_from_url_option(const std::string& option);

}  // namespace tamamo
