// spec-tui: a terminal UI for the spec-driven workflow (specify, clarify, plan, tasks,
// implement), an MCP client of an agent such as speckit-agent (see README.md).
#include "batch_mode.hpp"
#include "config.hpp"
#include "tui_app.hpp"
#include "workflow_runner.hpp"

#include <CLI/CLI.hpp>

#include <clocale>
#include <cmath>
#include <iostream>
#include <unistd.h>

int main(int argc, char** argv) {
  using namespace spectui;
  CLI::App app{"spec-tui: run the spec-driven workflow (specify, clarify, plan, tasks, implement) through an MCP agent"};
  app.set_version_flag("--version", std::string("spec-tui ") + kClientVersion);
  std::string config_file, batch, input, spec_dir, log_file, endpoint;
  std::optional<double> timeout_seconds;
  std::vector<std::string> server;
  app.add_option("--config", config_file,
                 "TOML configuration (default: $SPEC_TUI_CONFIG, ./spec-tui.toml, then "
                 "$XDG_CONFIG_HOME/spec-tui/config.toml)");
  app.add_option("--batch", batch, "Run one command without the UI: specify, clarify, plan, tasks or implement");
  app.add_option("--input", input, "The command's input (--batch): feature description, questions, task filter");
  app.add_option("--spec-dir", spec_dir, "The specification directory (default: [workflow] spec_directory, else .)");
  app.add_option("--timeout", timeout_seconds, "Seconds to wait for each answer (default: [mcp] timeout_seconds, else 60)");
  app.add_option("--log", log_file, "Log file (default: [log] file, else $XDG_STATE_HOME/spec-tui/spec-tui.log)");
  app.add_option("--endpoint", endpoint, "Reach the agent over Streamable HTTP at this URL instead");
  app.add_option("server", server, "After --: the agent's command and arguments (overrides [mcp] command/args)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }

  Config config;
  try {
    std::optional<std::filesystem::path> file =
        config_file.empty() ? default_config_path() : std::optional<std::filesystem::path>(config_file);
    if (file) config = load_config_file(*file);
  } catch (const ConfigError& e) {
    std::cerr << "spec-tui: configuration error: " << e.what() << "\n";
    return kExitUsage;
  }
  if (!server.empty()) {
    config.transport = "stdio";
    config.command = server.front();
    config.args.assign(server.begin() + 1, server.end());
  }
  if (!endpoint.empty()) {
    config.transport = "http";
    config.endpoint = endpoint;
  }
  if (timeout_seconds) {
    if (!std::isfinite(*timeout_seconds) || *timeout_seconds <= 0 || *timeout_seconds > 86400) {
      std::cerr << "spec-tui: --timeout must be a number of seconds above 0 and at most 86400\n";
      return kExitUsage;
    }
    config.timeout = std::chrono::milliseconds(static_cast<long long>(std::llround(*timeout_seconds * 1000)));
  }
  if (!spec_dir.empty()) config.spec_directory = spec_dir;
  if (config.spec_directory.empty()) config.spec_directory = std::filesystem::current_path();
  if (!log_file.empty()) config.log_file = log_file;
  if (config.log_file.empty()) config.log_file = default_log_path();

  std::optional<WorkflowCommand> command;
  if (!batch.empty()) {
    command = find_command(batch);
    if (!command) {
      std::cerr << "spec-tui: --batch " << batch << ": no such command (specify, clarify, plan, tasks, implement)\n";
      return kExitUsage;
    }
  } else if (!::isatty(0) || !::isatty(1)) {
    std::cerr << "spec-tui: the terminal UI needs a terminal; use --batch COMMAND in scripts\n";
    return kExitUsage;
  }

  OutputLog log;
  try {
    log.open(config.log_file);
  } catch (const std::exception& e) {
    std::cerr << "spec-tui: " << e.what() << "\n";
    return kExitUsage;
  }
  log.detail("spec-tui " + std::string(kClientVersion) + " starting; configuration: " +
             (config.source.empty() ? std::string("built-in defaults") : config.source.string()) + "; transport " +
             config.transport);
  WorkflowRunner runner(config, log);
  if (command) return run_batch(runner, *command, input);
  std::setlocale(LC_ALL, "");
  return run_tui(runner);
}
