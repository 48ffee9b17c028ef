// mcpspec: conformance test harness and fuzzer for the Model Context Protocol.
#include "harness/cli/commands.hpp"
#include "harness/transport/child_process.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>

int main(int argc, char** argv) {
  mcpspec::transport::prepare_process_handling();
  CLI::App app{"mcpspec " MCPSPEC_VERSION ": conformance test harness and fuzzer for the Model Context Protocol"};
  app.require_subcommand(1);
  // Every command's options in one text: what the man page (help2man) is made from.
  app.set_help_all_flag("--help-all", "Print the help of every command and exit");
  app.set_version_flag("--version", [] { return mcpspec::cli::version_text(); }, "Print the version and the supported protocol versions");
  int exit_code = 0;
  mcpspec::cli::add_run_command(app, exit_code);
  mcpspec::cli::add_list_command(app, exit_code);
  mcpspec::cli::add_coverage_command(app, exit_code);
  mcpspec::cli::add_validate_command(app, exit_code);
  mcpspec::cli::add_fuzz_command(app, exit_code);
  mcpspec::cli::add_bridge_command(app, exit_code);
  mcpspec::cli::add_report_command(app, exit_code);
  mcpspec::cli::add_explain_command(app, exit_code);
  mcpspec::cli::add_proxy_command(app, exit_code);
  mcpspec::cli::add_scenario_command(app, exit_code);
  mcpspec::cli::add_auth_server_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const mcpspec::cli::UsageError& e) {
    std::cerr << "mcpspec: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "mcpspec: error: " << e.what() << "\n";
    return 2;
  }
  return exit_code;
}
