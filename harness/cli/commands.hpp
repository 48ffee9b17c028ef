#pragma once
// The mcpspec subcommands. Each returns the process exit code: 0 nothing failed, 1 failures,
// 2 usage or harness error.
#include <stdexcept>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace mcpspec::cli {

void add_run_command(CLI::App& app, int& exit_code);
void add_list_command(CLI::App& app, int& exit_code);
void add_coverage_command(CLI::App& app, int& exit_code);
void add_validate_command(CLI::App& app, int& exit_code);
void add_fuzz_command(CLI::App& app, int& exit_code);
void add_bridge_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_explain_command(CLI::App& app, int& exit_code);
void add_proxy_command(CLI::App& app, int& exit_code);
void add_scenario_command(CLI::App& app, int& exit_code);
void add_auth_server_command(CLI::App& app, int& exit_code);

// The current time as ISO 8601 UTC ("2026-07-28T09:00:00Z"), for RunInfo::started_at.
std::string iso_now();

// What --version prints: the mcpspec version and the protocol versions it tests.
std::string version_text();

// Usage problems found after parsing (bad values, missing files): reported like CLI11's own.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mcpspec::cli
