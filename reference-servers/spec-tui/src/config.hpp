// spec-tui's configuration: the TOML file the document describes ([mcp] transport, command,
// args, endpoint) plus what the document leaves to the client (timeout, retries, spec directory,
// log file). Every problem names the file, the line and column, and the key.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace spectui {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Config {
  std::string transport = "stdio";  // "stdio" or "http"
  std::string command = "speckit-agent";
  std::vector<std::string> args;
  std::string endpoint;  // http only
  std::chrono::milliseconds timeout{60000};  // per request; the document's default is 60 s
  int retries = 2;                           // extra attempts for recoverable errors
  std::filesystem::path spec_directory;      // empty: the current directory
  std::filesystem::path log_file;            // empty: the default under XDG_STATE_HOME
  std::filesystem::path source;              // the file this came from (empty: built-in defaults)
};

// Parses TOML text; `origin` names it in errors ("spec-tui.toml:3:1: ...").
Config parse_config(const std::string& text, const std::string& origin);
// Reads and parses a file; a missing or unreadable file is a ConfigError naming it.
Config load_config_file(const std::filesystem::path& file);

// Where the configuration comes from when no --config is given: $SPEC_TUI_CONFIG, else
// ./spec-tui.toml, else $XDG_CONFIG_HOME/spec-tui/config.toml (~/.config/...), the first that is
// set / exists; nullopt: built-in defaults.
std::optional<std::filesystem::path> default_config_path();

// The log file used when the configuration names none: $XDG_STATE_HOME/spec-tui/spec-tui.log
// (~/.local/state/...).
std::filesystem::path default_log_path();

}  // namespace spectui
