// `mcpspec proxy [options] -- CMD ARGS...`: stands between a real MCP host and a real stdio server,
// forwards the traffic unchanged and reports what breaks the rules of the negotiated version
// (docs/proxy.md). Exits with the server's status, so the host sees what it would see without us.
#include "harness/cli/commands.hpp"
#include "harness/cli/end_signals.hpp"
#include "harness/cli/traffic_report.hpp"
#include "harness/proxy/http_proxy.hpp"
#include "harness/proxy/stdio_proxy.hpp"
#include "reports/run_facts.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <memory>

namespace mcpspec::cli {

namespace {

struct ProxyArgs {
  std::vector<std::string> command;
  std::string listen;    // HOST:PORT (the HTTP proxy)
  std::string upstream;  // the server's URL (the HTTP proxy)
  std::string record;
  std::string findings;
  std::vector<std::string> reports;
  int shutdown_ms = 5000;
};

// "127.0.0.1:8080", ":0" or "8080" (host 127.0.0.1). Throws UsageError.
std::pair<std::string, int> parse_listen(const std::string& text) {
  auto colon = text.rfind(':');
  std::string host = colon == std::string::npos ? "127.0.0.1" : text.substr(0, colon);
  std::string port = colon == std::string::npos ? text : text.substr(colon + 1);
  if (host.empty()) host = "127.0.0.1";
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535)
    throw UsageError("--listen " + text + ": expected HOST:PORT with a port from 0 to 65535 (0: any free port)");
  return {host, std::stoi(port)};
}

// The HTTP proxy runs until SIGINT, SIGTERM or SIGHUP, then writes the reports. Exit 1 when any
// finding is a MUST (there is no server exit status to pass on), else 0.
int run_http_proxy(const ProxyArgs& a) {
  if (!a.command.empty()) throw UsageError("--listen/--upstream proxy HTTP; a server command (after --) is for stdio");
  if (a.listen.empty() || a.upstream.empty()) throw UsageError("the HTTP proxy needs both --listen HOST:PORT and --upstream URL");
  check_report_specs(a.reports);
  auto [host, port] = parse_listen(a.listen);
  FindingSink sink(a.findings, "mcpspec proxy: ");
  proxy::HttpProxyOptions o;
  o.listen_host = host;
  o.listen_port = port;
  o.upstream = a.upstream;
  o.record_path = a.record;
  o.on_refused = [](const std::string& line) {
    std::fprintf(stderr, "mcpspec proxy: %s\n", line.c_str());
    std::fflush(stderr);
  };
  const EndSignals ends;  // before the proxy's threads start
  std::unique_ptr<proxy::HttpProxy> hp;
  int bound = 0;
  try {
    hp = std::make_unique<proxy::HttpProxy>(o, [&](const proxy::TrafficFinding& f) { sink.write(f); });
    bound = hp->start();
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  const auto started = std::chrono::steady_clock::now();
  std::fprintf(stderr, "mcpspec proxy: listening on http://%s:%d/ for %s\n", host.c_str(), bound, a.upstream.c_str());
  std::fflush(stderr);
  ends.wait();
  hp->stop();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  const std::string target = a.upstream;
  write_traffic_reports(a.reports, hp->results(target, ms), hp->version(), target, ms);
  return hp->any_must() ? 1 : 0;
}

int run_proxy(const ProxyArgs& a) {
  if (!a.listen.empty() || !a.upstream.empty()) return run_http_proxy(a);
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
  write_traffic_reports(a.reports, {judge.result(command, out.duration_ms)}, judge.version(), command, out.duration_ms);
  return out.exit_code;
}

}  // namespace

void add_proxy_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<ProxyArgs>();
  auto* cmd = app.add_subcommand(
      "proxy", "Stand between an MCP host and a server (stdio: -- CMD ARGS; HTTP: --listen and --upstream): forward everything, report rule violations");
  cmd->add_option("--listen", a->listen, "HTTP: serve the host on HOST:PORT (port 0: any free port; it is printed)");
  cmd->add_option("--upstream", a->upstream, "HTTP: the server's URL (http://host:port/mcp) the host's requests go to");
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
