// `mcpspec validate`: check scenario files, check JSON-RPC messages against a protocol version, or
// judge a recorded proxy trace offline exactly as `mcpspec proxy` judged it live.
#include "harness/cli/commands.hpp"
#include "harness/cli/traffic_report.hpp"
#include "harness/proxy/http_proxy.hpp"
#include "harness/protocol/peer_json.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/scenario/loader.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <map>
#include <memory>

namespace mcpspec::cli {

namespace {

struct ValidateArgs {
  std::vector<std::string> paths;
  std::string messages;       // a JSONL file of messages
  std::string protocol = protocol::latest_version();
  std::string sender = "server";
  std::string trace;          // a JSONL trace of `mcpspec proxy --record`
  std::vector<std::string> reports;
};

// Feeds every entry of the trace to the same judge the live proxy uses: the same findings, with
// the same message indexes, on standard output. An HTTP trace names the MCP session of each entry
// (its "http" "session" number) and each session gets its own judge, as in the live proxy. Exit 1
// when any finding is a MUST.
int validate_trace(const ValidateArgs& a) {
  check_report_specs(a.reports);
  std::vector<proxy::TraceEntry> entries;
  try {
    entries = proxy::read_trace(a.trace);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  FindingSink sink("-", "");
  std::map<long long, std::unique_ptr<proxy::TrafficJudge>> judges;  // by session number
  std::size_t findings = 0;
  for (const auto& e : entries) {
    if (proxy::is_metadata_only(e)) continue;
    const long long session = e.http.is_object() ? e.http.value("session", 1LL) : 1LL;
    auto& judge = judges[session];
    if (!judge) judge = std::make_unique<proxy::TrafficJudge>();
    const std::string text = e.http.is_object() ? proxy::http_message_text(e.text) : e.text;
    for (const auto& f : judge->judge(e.dir, text, e.t_ms)) sink.write(f);
  }
  std::vector<ScenarioResult> results;
  const double duration = entries.empty() ? 0 : entries.back().t_ms;
  for (const auto& [n, judge] : judges) {
    findings += judge->findings_seen();
    results.push_back(judge->result(a.trace, duration));
    if (judges.size() > 1) results.back().id += "-" + std::to_string(n);
  }
  std::cout << fmt::format("{} trace line(s), {} finding(s)\n", entries.size(), findings);
  const std::string version = judges.empty() ? proxy::TrafficJudge().version() : judges.begin()->second->version();
  write_traffic_reports(a.reports, results, version, a.trace, duration);
  return sink.any_must() ? 1 : 0;
}

int validate_messages(const ValidateArgs& a) {
  std::ifstream in(a.messages);
  if (!in) throw UsageError("cannot read " + a.messages);
  const auto& reg = protocol::SchemaRegistry::builtin();
  if (!reg.has_version(a.protocol)) throw UsageError("no schema for protocol " + a.protocol);
  auto sender = a.sender == "client" ? protocol::Sender::Client : protocol::Sender::Server;
  std::string line;
  int lineno = 0, bad = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto read = protocol::read_peer_json(line);
    if (read.status != protocol::PeerJson::Status::Ok) {
      const char* what = read.status == protocol::PeerJson::Status::NotJson ? "not JSON" : "unreadable";
      std::cout << fmt::format("{}:{}: {}: {}\n", a.messages, lineno, what, read.detail);
      ++bad;
      continue;
    }
    auto v = reg.validate(read.value, a.protocol, sender);
    if (!v.valid) {
      ++bad;
      for (const auto& i : v.issues)
        std::cout << fmt::format("{}:{}: {} {}: {}\n", a.messages, lineno, v.definition, i.pointer, i.message);
    }
  }
  std::cout << fmt::format("{} message(s), {} invalid\n", lineno, bad);
  return bad ? 1 : 0;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand("validate", "Check scenario files (or, with --messages, JSON-RPC messages; with --trace, a proxy trace)");
  cmd->add_option("paths", a->paths, "Scenario files or folders");
  cmd->add_option("--messages", a->messages, "A file with one JSON-RPC message per line to validate")
      ->check(CLI::ExistingFile);
  cmd->add_option("--protocol", a->protocol, "Protocol version for --messages")->capture_default_str();
  cmd->add_option("--sender", a->sender, "Who sent the --messages")->check(CLI::IsMember({"client", "server"}));
  cmd->add_option("--trace", a->trace, "A JSONL trace written by mcpspec proxy --record, judged offline")
      ->check(CLI::ExistingFile);
  cmd->add_option("--report", a->reports, "With --trace: write a report (json:PATH, junit:PATH, md:PATH, html:PATH)")
      ->allow_extra_args(false);
  cmd->callback([a, &exit_code] {
    if (!a->trace.empty()) {
      exit_code = validate_trace(*a);
      return;
    }
    if (!a->messages.empty()) {
      exit_code = validate_messages(*a);
      return;
    }
    if (a->paths.empty()) throw UsageError("validate needs scenario paths or --messages FILE");
    auto loaded = scenario::load_scenarios(a->paths);
    for (const auto& e : loaded.errors) std::cout << e.text() << "\n";
    std::cout << fmt::format("{} valid scenario(s), {} problem(s)\n", loaded.scenarios.size(), loaded.errors.size());
    exit_code = loaded.errors.empty() ? 0 : 1;
  });
}

}  // namespace mcpspec::cli
