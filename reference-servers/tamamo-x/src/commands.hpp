// The `build` and `mcp` commands.
#pragma once

#include "config.hpp"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace tamamo {

// Where the servers come from: --server/--server-argv/--server-url options when any is given,
// else the configuration file (--config, default DIR/tamamo-x.config.json).
struct SourceOptions {
  std::filesystem::path dir;  // -C; the current folder when empty
  std::string config_file;
  std::vector<std::string> servers, server_argvs, server_urls;
  std::string rules_file;
  std::optional<int> timeout_ms;       // discovery/connect timeout per server
  std::optional<int> call_timeout_ms;  // per underlying tool call
};

// Throws ConfigError.
Config resolve_config(const SourceOptions& source);

struct BuildOptions {
  SourceOptions source;
  std::string output;  // default DIR/.tamamo-x/groups.json
  bool print = false;  // JSON on stdout instead of a file
};
// 0: at least one server answered and the result was written; 1: no server answered, or the
// configuration or output failed (reason on `err`).
int run_build(const BuildOptions& options, std::ostream& out, std::ostream& err);

struct McpOptions {
  SourceOptions source;
  std::string groups_file;  // default DIR/.tamamo-x/groups.json (unused with --server options)
  std::string transport = "stdio";
  std::string host = "127.0.0.1";
  std::optional<int> port;  // default $PORT, else 3000
  std::string path = "/mcp";
};
int run_mcp(const McpOptions& options, std::ostream& err);

}  // namespace tamamo
