// `mcpspec proxy [options] -- CMD ARGS...`: stands between a real MCP host and a real stdio server,
// forwards the traffic unchanged and reports what breaks the rules of the negotiated version
// (docs/proxy.md). Exits with the server's status, so the host sees what it would see without us.
#include "harness/cli/commands.hpp"
#include "harness/cli/traffic_report.hpp"
#include "harness/proxy/stdio_proxy.hpp"
#include "reports/run_facts.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace mcpspec::cli {

namespace {

struct ProxyArgs {
  std::vector<std::string> command;
  std::string record;
  std::string findings;
  std::vector<std::string> reports;
  int shutdown_ms = 5000;
};

int run_proxy(const ProxyArgs& a) {
  if (a.command.empty()) throw UsageError("proxy needs the server command after --, e.g. mcpspec proxy -- node server.js");
  check_report_specs(a.reports);
  std::string command;
  for (const auto& word : a.command) command += (command.empty() ? "" : " ") + reports::shell_word(word);
  FindingSink sink(a.findings, "mcpspec proxy: ");
  proxy::TrafficJudge judge;
  proxy::StdioProxyOptions o;
  o.command = command;
  o.record_path = a.record;
  o.shutdown_ms = a.shutdown_ms;
  proxy::StdioProxyOutcome out;
  try {
    out = proxy::run_stdio_proxy(o, judge, [&](const proxy::TrafficFinding& f) { sink.write(f); });
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());  // the trace file or the server could not be set up
  }
  if (!out.checking_error.empty())
    std::fprintf(stderr, "mcpspec proxy: checking stopped (traffic was still forwarded): %s\n",
                 out.checking_error.c_str());
  write_traffic_reports(a.reports, judge, command, out.duration_ms);
  return out.exit_code;
}

}  // namespace

void add_proxy_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<ProxyArgs>();
  auto* cmd = app.add_subcommand(
      "proxy", "Stand between an MCP host and a stdio server: forward everything, report rule violations");
  cmd->add_option("--record", a->record, "Write a JSONL trace of every line to FILE (docs/proxy.md)");
  cmd->add_option("--findings", a->findings, "Write the finding lines to FILE instead of standard error");
  cmd->add_option("--report", a->reports, "Write a report at the end: json:PATH, junit:PATH, md:PATH, html:PATH")
      ->allow_extra_args(false);
  cmd->add_option("--shutdown-ms", a->shutdown_ms,
                  "After the host closes stdin: how long the server may take to exit before SIGTERM")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();
  cmd->add_option("command", a->command, "The server command and its arguments (after --)");
  cmd->callback([a, &exit_code] { exit_code = run_proxy(*a); });
}

}  // namespace mcpspec::cli
