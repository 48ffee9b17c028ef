// `mcpspec fuzz`: the live protocol fuzzer. Keeps a session with the target, sends generated and
// mutated messages, and saves every distinct misbehaviour as a minimized scenario file that
// `mcpspec run` replays. The engine lives in harness/fuzz/; this file is options and output.
#include "harness/cli/commands.hpp"
#include "harness/cli/paths.hpp"
#include "harness/cli/target_factory.hpp"
#include "harness/fuzz/campaign.hpp"
#include "harness/fuzz/merge.hpp"
#include "harness/fuzz/seeds.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/protocol/era.hpp"
#include "harness/protocol/versions.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace fs = std::filesystem;

namespace mcpspec::cli {

namespace {

struct FuzzArgs {
  TargetOptions target;  // --server, --url, --transport, --port-env, --startup-timeout-ms, --max-message-bytes
  double duration_s = 60;
  std::uint64_t seed = 1;
  std::size_t max_messages = 0;
  int jobs = 1;
  int job_index = 0;
  std::string corpus;
  std::vector<std::string> scenarios;
  bool no_scenario_seeds = false;
  std::string findings = "fuzz-findings";
  std::string protocol = protocol::latest_version();
  int timeout_ms = 2000;
  std::size_t window = 64;
  bool lockstep = false;
  scenario::CallTools call_tools = scenario::CallTools::ReadOnly;
  std::size_t max_findings = 50;
  int minimize_ms = 30000;
  int minimize_replays = 150;
  bool no_verify = false;
  bool quiet = false;
};

scenario::TargetSpec fuzz_target(const FuzzArgs& a) {
  TargetOptions o = a.target;
  o.stop_grace_ms = 200;
  // The fuzzer sends initialize requests as fuzz; a server that opens a new session for each
  // must not pull the campaign out of the session it performed the handshake in.
  o.keep_session = true;
  return server_target(o);
}

fuzz::TransportFactory make_factory(const scenario::TargetSpec& target) {
  auto spec = std::make_shared<scenario::TargetSpec>(target);
  return [spec] { return spec->make("", {}); };
}

int run_fuzz(const FuzzArgs& a) {
  if (a.target.server.empty() && a.target.url.empty()) throw UsageError("mcpspec fuzz needs --server CMD or --url URL");
  if (protocol::is_modern_version(a.protocol))
    throw UsageError("--protocol " + a.protocol + ": not yet supported for fuzzing (the live fuzzer holds only "
                     "initialize-based sessions; mcpspec run tests servers at this version)");
  if (!protocol::is_known_version(a.protocol))
    throw UsageError("--protocol " + a.protocol + ": not a version mcpspec knows");

  const scenario::TargetSpec target = fuzz_target(a);
  fuzz::CampaignOptions o;
  o.make = make_factory(target);
  o.target = a.target.url.empty() ? a.target.server : a.target.url;
  o.version = a.protocol;
  o.schemas = &protocol::SchemaRegistry::builtin();
  o.duration_s = a.duration_s;
  o.max_messages = a.max_messages;
  o.seed = a.seed;
  o.jobs = a.jobs;
  o.first_job = a.job_index;
  o.timeout_ms = a.timeout_ms;
  o.startup_timeout_ms = a.target.startup_timeout_ms;
  o.window = a.lockstep ? 1 : a.window;
  o.call_tools = a.call_tools;
  o.findings_dir = a.findings;
  o.max_findings = a.max_findings;
  o.minimize.max_ms = a.minimize_ms;
  o.minimize.max_replays = a.minimize_replays;
  o.verify_replay = !a.no_verify;
  try {
    if (!a.no_scenario_seeds) {
      std::vector<std::string> paths = a.scenarios;
      if (paths.empty()) paths.push_back(home_dir() + "/scenarios/mcp");
      o.seeds = fuzz::scenario_seeds(paths, a.protocol);
    }
    if (!a.corpus.empty()) {
      auto more = fuzz::corpus_seeds(a.corpus);
      o.seeds.insert(o.seeds.end(), more.begin(), more.end());
    }
  } catch (const fuzz::SeedError& e) {
    throw UsageError(e.what());
  }
  std::error_code ec;
  fs::create_directories(a.findings, ec);
  if (ec || !fs::is_directory(a.findings)) throw UsageError("--findings " + a.findings + ": cannot create the folder");

  // A target that cannot start is one line and exit 2, as for `mcpspec run`, not a crash finding.
  scenario::RunConfig probe;
  probe.target = target;
  probe.proposed_version = a.protocol;
  probe.startup_timeout_ms = a.target.url.empty() || !a.target.server.empty() ? a.target.startup_timeout_ms : a.timeout_ms;
  if (!target_starts(probe)) return 2;

  bool tty = ::isatty(2);
  if (!a.quiet)
    o.on_progress = [tty](const fuzz::CampaignStats& s) {
      std::string restarts;
      std::size_t total = 0;
      for (const auto& [cause, n] : s.restarts) total += n;
      std::string line = fmt::format("fuzz: {:6.1f} s  {} messages  {:.0f} msg/s  {} finding(s)  {} restart(s)",
                                     s.elapsed_s, s.messages, s.elapsed_s > 0 ? s.messages / s.elapsed_s : 0.0,
                                     s.findings, total);
      if (tty) std::cerr << "\r" << line << "   " << std::flush;
      else std::cerr << line << "\n";
    };

  auto result = fuzz::run_campaign(o);
  if (!a.quiet && tty) std::cerr << "\n";

  std::string json_path = (fs::path(a.findings) / "report.json").string();
  std::string md_path = (fs::path(a.findings) / "report.md").string();
  {
    std::ofstream out(json_path);
    out << fuzz::campaign_report_json(o, result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (!out) throw std::runtime_error("could not write " + json_path);
  }
  {
    std::ofstream out(md_path);
    out << fuzz::campaign_report_markdown(o, result);
    if (!out) throw std::runtime_error("could not write " + md_path);
  }
  double rate = result.stats.elapsed_s > 0 ? result.stats.messages / result.stats.elapsed_s : 0;
  std::cout << fmt::format("mcpspec fuzz: {} messages in {:.1f} s ({:.0f} messages/s), latency p50 {:.0f} us p99 {:.0f} us\n",
                           result.stats.messages, result.stats.elapsed_s, rate, result.latency.quantile_us(0.5),
                           result.latency.quantile_us(0.99));
  std::string restarts;
  for (const auto& [cause, n] : result.stats.restarts) restarts += fmt::format(" {} {}", n, cause);
  std::cout << "restarts:" << (restarts.empty() ? " none" : restarts) << "\n";
  for (const auto& f : result.findings)
    std::cout << fmt::format("FINDING {} [{}] {}: {}\n  reproducer: {} ({} message(s){}, replay: {})\n", f.anomaly.oracle,
                             f.anomaly.method, f.anomaly.signature, f.anomaly.detail,
                             f.file.empty() ? "(not written)" : f.file, f.messages.size(),
                             f.reproduced ? "" : ", NOT reproduced in a fresh process",
                             f.replay_verdict.empty() ? "not checked" : f.replay_verdict);
  for (const auto& e : result.errors) std::cout << "ERROR " << e << "\n";
  std::cout << result.findings.size() << " finding(s); report: " << md_path << ", " << json_path << "\n";
  if (!result.errors.empty() && result.stats.messages == 0) return 2;
  // Sessions that never got past initialize (a target flooding junk, or one line past the size
  // limit, answers the start-up probe but not the handshake) sent nothing: "0 findings" would
  // read as a clean target, so this is a target that could not be fuzzed (tests/hostile/).
  if (result.stats.messages == 0 && result.findings.empty()) {
    std::cerr << "mcpspec fuzz: no message was sent: no session got past the handshake (restarts:"
              << (restarts.empty() ? " none" : restarts) << ")\n";
    return 2;
  }
  return result.findings.empty() ? 0 : 1;
}

struct MergeArgs {
  std::vector<std::string> dirs;
  std::string out;
};

int run_merge(const MergeArgs& a) {
  fuzz::MergeOutcome r;
  try {
    r = fuzz::merge_findings(a.dirs, a.out);
  } catch (const fuzz::MergeError& e) {
    throw UsageError(std::string("mcpspec fuzz merge: ") + e.what());
  }
  for (const auto& f : r.report["findings"])
    std::cout << fmt::format("FINDING {} [{}] {}: {}\n  reproducer: {} (found {} time(s), in {} run(s))\n",
                             f.value("oracle", "?"), f.value("method", "?"), f.value("signature", ""), f.value("detail", ""),
                             f.value("reproducer", "(not written)"), f.value("seen", 1), f["found_in"].size());
  std::cout << fmt::format("{} finding(s) from {} run(s); report: {}, {}\n", r.findings, r.report["merged_from"].size(),
                           (fs::path(a.out) / "report.md").string(), (fs::path(a.out) / "report.json").string());
  return r.findings == 0 ? 0 : 1;
}

void add_merge_command(CLI::App* fuzz, int& exit_code) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = fuzz->add_subcommand("merge", "Merge the findings folders of several fuzz runs (machines, CI jobs) into one "
                                            "deduplicated folder with one report");
  cmd->add_option("dirs", args->dirs, "Findings folders (--findings of each run, or earlier merges)")->required();
  cmd->add_option("--out,-o", args->out, "Folder for the merged findings and report")->required();
  cmd->callback([args, &exit_code] { exit_code = run_merge(*args); });
}

}  // namespace

void add_fuzz_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FuzzArgs>();
  auto* cmd = app.add_subcommand("fuzz", "Live protocol fuzzing of a running server: finds crashes, hangs and protocol "
                                         "violations, saves each as a minimized replayable scenario");
  cmd->add_option("--server", args->target.server, "Command that starts the server under test (stdio), run by /bin/sh");
  cmd->add_option("--url", args->target.url, "Fuzz a server at this URL (HTTP transports)");
  add_transport_option(cmd, args->target.transport, "http | sse | ws (with --url; default from the URL)");
  cmd->add_option("--port-env", args->target.port_env, "With --server and --url: the variable that tells the server its port");
  cmd->add_option("--duration", args->duration_s, "Stop sending after this many seconds (default 60)")
      ->check(CLI::Range(0.1, 7 * 24 * 3600.0));
  cmd->add_option("--seed", args->seed, "Random seed: the same seed sends the same messages (default 1)");
  cmd->add_option("--max-messages", args->max_messages, "Stop after this many messages in total (default: no limit)");
  cmd->add_option("--jobs,-j", args->jobs, "Independent sessions in parallel, each with its own server process")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--job-index", args->job_index,
                  "Index of this run's first job (default 0): job K's messages come from --seed and K, so machines "
                  "sharing a seed take distinct indexes, and --jobs 1 --job-index K runs job K again")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--corpus", args->corpus, "Folder of seed messages (*.json: a message or an array; *.jsonl: one per line)");
  cmd->add_option("--scenarios", args->scenarios, "Scenario files or folders whose messages seed the fuzzer (default scenarios/mcp)");
  cmd->add_flag("--no-scenario-seeds", args->no_scenario_seeds, "Do not seed from scenario files");
  cmd->add_option("--findings", args->findings, "Folder for finding scenarios and the report (default fuzz-findings)");
  cmd->add_option("--protocol", args->protocol, "Protocol version to propose (default: the latest)");
  cmd->add_option("--timeout-ms", args->timeout_ms, "How long an answer (or a liveness ping) may take (default 2000)")
      ->check(CLI::Range(10, 600000));
  cmd->add_option("--startup-timeout-ms", args->target.startup_timeout_ms, "How long the answer to initialize may take (default 20000)")
      ->check(CLI::Range(10, 600000));
  cmd->add_option("--window", args->window, "Requests in flight before waiting for answers (default 64)")
      ->check(CLI::Range(1, 4096));
  cmd->add_flag("--lockstep", args->lockstep, "Wait for each answer before the next message (same as --window 1)");
  add_call_tools_option(cmd, args->call_tools, "Which listed tools may really be called: none, readonly (default), all");
  cmd->add_option("--max-findings", args->max_findings, "Distinct findings to keep (default 50)")->check(CLI::Range(1, 10000));
  cmd->add_option("--minimize-ms", args->minimize_ms, "Time bound for minimizing one finding (default 30000)")
      ->check(CLI::Range(0, 3600000));
  cmd->add_option("--minimize-replays", args->minimize_replays, "Replays allowed for minimizing one finding (default 150)")
      ->check(CLI::Range(1, 100000));
  cmd->add_flag("--no-verify", args->no_verify, "Do not replay saved findings through the scenario runner");
  cmd->add_flag("--quiet,-q", args->quiet, "No progress line on stderr");
  cmd->add_option("--max-message-bytes", args->target.max_message_bytes, "Largest message accepted from the target")
      ->check(CLI::Range(static_cast<std::size_t>(1024), static_cast<std::size_t>(1) << 30));
  add_merge_command(cmd, exit_code);
  cmd->require_subcommand(0, 1);
  // The fuzz callback runs after a subcommand's too: `fuzz merge` is not a fuzzing run.
  cmd->callback([cmd, args, &exit_code] {
    if (cmd->got_subcommand("merge")) return;
    exit_code = run_fuzz(*args);
  });
}

}  // namespace mcpspec::cli
