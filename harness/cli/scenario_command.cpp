// `mcpspec scenario from-trace`: turn a recorded session (a proxy trace) into a replay scenario.
// The scenario is checked by the same loader `mcpspec run` uses before it is written, so what
// this command writes always loads.
#include "harness/cli/commands.hpp"
#include "harness/proxy/trace.hpp"
#include "harness/proxy/trace_to_scenario.hpp"
#include "harness/scenario/loader.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>

namespace mcpspec::cli {

namespace {

struct FromTraceArgs {
  std::string trace;
  std::string role = "server";
  std::string id;
  std::string out = "-";
  bool force = false;
};

// The scenario as a person reads it: the top-level keys in the order docs/scenario-format.md
// lists them, each step's action first and its note last (nlohmann::json sorts keys).
nlohmann::ordered_json in_reading_order(const nlohmann::json& j, const std::vector<std::string>& order) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& k : order)
    if (j.contains(k)) out[k] = j[k];
  for (const auto& [k, v] : j.items())
    if (!out.contains(k)) out[k] = v;
  return out;
}

std::string scenario_text(const nlohmann::json& s) {
  static const std::vector<std::string> top = {"id", "title", "description", "role", "requirements", "level",
                                               "tags", "fixture", "answers", "steps"};
  static const std::vector<std::string> step = {"send", "send_raw", "request", "notify", "expect", "reply",
                                                "to", "capture", "within_ms", "invalid"};
  auto out = in_reading_order(s, top);
  out["steps"] = nlohmann::ordered_json::array();
  for (const auto& st : s["steps"]) {
    auto o = in_reading_order(st, step);
    if (o.contains("note")) {  // last
      auto note = o["note"];
      o.erase("note");
      o["note"] = note;
    }
    out["steps"].push_back(o);
  }
  return out.dump(2) + "\n";
}

int from_trace(const FromTraceArgs& a) {
  std::vector<proxy::TraceEntry> entries;
  try {
    entries = proxy::read_trace(a.trace);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  proxy::FromTraceOptions o;
  o.role = a.role == "client" ? scenario::Role::Client : scenario::Role::Server;
  o.id = a.id;
  o.source = a.trace;
  proxy::FromTraceResult made;
  try {
    made = proxy::scenario_from_trace(entries, o);
  } catch (const std::runtime_error& e) {
    throw UsageError(a.trace + ": " + e.what());
  }
  const std::string text = scenario_text(made.scenario);
  // The loader's verdict on what we are about to write: a problem here is a bug of this command
  // (or an id given with --id that the format refuses), never something to write anyway.
  auto loaded = scenario::load_scenario_text(text, a.out == "-" ? "<from-trace>" : a.out);
  if (!loaded.errors.empty()) {
    for (const auto& e : loaded.errors)
      std::cerr << fmt::format("mcpspec scenario from-trace: the scenario made from {} does not load: {}\n", a.trace,
                               e.text());
    return 2;
  }
  if (a.out == "-") {
    std::cout << text;
  } else {
    if (!a.force && std::ifstream(a.out)) throw UsageError(a.out + " exists (use --force to replace it)");
    std::ofstream f(a.out, std::ios::trunc);
    if (!(f << text) || !f.flush()) throw UsageError("cannot write " + a.out);
  }
  for (const auto& n : made.notes) std::cerr << "note: " << n << "\n";
  std::cerr << fmt::format("{}: {} step(s) from {} trace line(s){}\n", a.out == "-" ? "scenario" : a.out,
                           made.scenario["steps"].size(), entries.size(),
                           o.role == scenario::Role::Server ? "; run it with: mcpspec run --server CMD FILE"
                                                            : "; run it with: mcpspec run --client CMD FILE");
  return 0;
}

}  // namespace

void add_scenario_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("scenario", "Make scenarios");
  cmd->require_subcommand(1);
  auto a = std::make_shared<FromTraceArgs>();
  auto* ft = cmd->add_subcommand(
      "from-trace", "Write a scenario that replays one side of a recorded session (mcpspec proxy --record) against the other");
  ft->add_option("trace", a->trace, "The trace (JSONL, docs/proxy.md)")->required();
  ft->add_option("--role", a->role,
                 "server: the scenario tests a server (the harness sends what the recorded client sent); client: it tests a "
                 "client (the harness answers as the recorded server did)")
      ->check(CLI::IsMember({"server", "client"}))
      ->capture_default_str();
  ft->add_option("--id", a->id, "Scenario id (default trace/replay/<trace file name>)");
  ft->add_option("--output,-o", a->out, "Where to write the scenario (- for standard output)")->capture_default_str();
  ft->add_flag("--force", a->force, "Replace an existing output file");
  ft->callback([a, &exit_code] { exit_code = from_trace(*a); });
}

}  // namespace mcpspec::cli
