// `mcpspec bridge SOCKET`: the stand-in server a client under test spawns (see
// harness/transport/bridge_pipe.hpp). Users never run it by hand; `mcpspec run --client` puts it
// into the client's command line in place of {server}.
#include "harness/cli/commands.hpp"
#include "harness/transport/bridge_pipe.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace mcpspec::cli {

void add_bridge_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<transport::BridgeOptions>();
  auto* cmd = app.add_subcommand(
      "bridge", "Pipe stdin/stdout to the harness's Unix socket (the server command a client under test starts)");
  cmd->add_option("socket", o->socket_path, "Unix socket the harness listens on")->required();
  cmd->add_option("--connect-timeout-ms", o->connect_timeout_ms, "How long to retry connecting")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();
  cmd->callback([o, &exit_code] { exit_code = transport::run_bridge(*o); });
}

}  // namespace mcpspec::cli
