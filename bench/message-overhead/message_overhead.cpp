// What the harness costs per message, against a bare nlohmann::json parse of the same messages
// (bench/message-overhead/README.md). Not a test: timings do not belong in ctest.
//
//   mcpspec-bench-message-overhead REPORT.json [--rounds N] [--steps N]
//
// The messages are real ones: every (request, response) pair in the wire logs of an mcpspec JSON
// report (a run against server-everything, say). A scenario sends those requests one step each
// (`request` + `expect`), and a scripted in-memory transport answers each with its recorded
// response (renumbered to the id the harness uses) through the real line framer. So one message
// costs what a scenario step costs: the request built and written, the answer framed, parsed,
// classified, judged by the monitors and the schema of its method, selected by id and matched.
// The yardstick is nlohmann::json::parse of the same answer texts, in the same process, one core.
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/runner.hpp"
#include "harness/transport/line_framer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace mcpspec;
using nlohmann::json;

namespace {

struct Pair {
  std::string method;
  json params;
  json response;  // as recorded; its id is replaced
};

// Every answered request of the report's wire logs, in order (initialize excluded: the bench does
// its own handshake first).
std::vector<Pair> pairs_of(const json& report) {
  std::vector<Pair> out;
  for (const auto& r : report.at("results")) {
    std::map<std::string, Pair> pending;
    for (const auto& w : r.value("wire", json::array())) {
      std::string dir = w.value("dir", ""), text = w.value("text", "");
      if ((dir != "out" && dir != "in") || text.empty() || text[0] != '{') continue;
      json msg = json::parse(text, nullptr, false);
      if (msg.is_discarded() || !msg.is_object() || !msg.contains("id")) continue;
      std::string key = msg["id"].dump();
      if (dir == "out" && msg.contains("method") && msg["method"].is_string()) {
        pending[key] = Pair{msg["method"], msg.value("params", json(nullptr)), json()};
      } else if (dir == "in" && !msg.contains("method") && pending.count(key)) {
        Pair p = std::move(pending[key]);
        pending.erase(key);
        if (p.method == "initialize") continue;
        p.response = std::move(msg);
        out.push_back(std::move(p));
      }
    }
  }
  return out;
}

// Answers the n-th request with the n-th frame, fed through the line framer as bytes would come.
class ScriptedTarget : public transport::Transport {
 public:
  explicit ScriptedTarget(const std::vector<std::string>* frames) : frames_(frames), framer_(1 << 24) {}
  std::string name() const override { return "bench"; }
  void start() override {}
  void send(const std::string& frame, Deadline) override {
    if (frame.find("\"method\":\"notifications/") != std::string::npos) return;
    if (next_ < frames_->size()) framer_.feed((*frames_)[next_++] + "\n");
  }
  void send_raw(const std::string&, Deadline) override {}
  transport::Event receive(Deadline) override {
    if (!framer_.has_frame()) return transport::Event{};
    return transport::Event{transport::Event::Type::Frame, framer_.pop().text, {}};
  }
  void close_input() override {}
  void signal(int) override {}
  std::optional<transport::ExitStatus> exit_status() override { return std::nullopt; }
  void stop() override {}
  std::string describe() const override { return "scripted in-memory target"; }

 private:
  const std::vector<std::string>* frames_;
  std::size_t next_ = 0;
  transport::LineFramer framer_;
};

// One timed round of each kind, in functions of their own so that a profiler can tell them apart:
// `valgrind --tool=callgrind` then gives each one's instruction count (repeatable on a busy
// machine, unlike seconds; see README.md).
[[gnu::noinline]] std::size_t harness_round(const scenario::Scenario& s, const scenario::RunConfig& cfg) {
  return scenario::run_scenario(s, cfg).wire.size();
}

[[gnu::noinline]] std::size_t bare_parse_round(const std::vector<std::string>& answers) {
  std::size_t n = 0;
  for (const auto& a : answers) n += json::parse(a).size();
  return n;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: mcpspec-bench-message-overhead REPORT.json [--rounds N] [--steps N]\n";
    return 2;
  }
  int rounds = 20;
  std::size_t steps = 2000;  // per scenario: within the wire log's 5000-entry bound (2 entries a step)
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string opt = argv[i];
    if (opt == "--rounds") rounds = std::max(1, std::atoi(argv[i + 1]));
    else if (opt == "--steps") steps = static_cast<std::size_t>(std::max(1, std::atoi(argv[i + 1])));
    else {
      std::cerr << "unknown option " << opt << "\n";
      return 2;
    }
  }
  std::ifstream in(argv[1]);
  json report = json::parse(in, nullptr, false);
  if (!in || report.is_discarded() || !report.is_object() || !report.contains("results")) {
    std::cerr << argv[1] << ": not an mcpspec JSON report\n";
    return 2;
  }
  auto pairs = pairs_of(report);
  if (pairs.empty()) {
    std::cerr << argv[1] << ": no answered request in its wire logs\n";
    return 2;
  }

  // The handshake, then `steps` requests cycling through the recorded pairs. Ids: the harness
  // numbers its requests 1, 2, ... (initialize is 1), so the answers are renumbered to match.
  const char* version = "2025-11-25";
  json doc = {{"id", "bench/message-overhead"}, {"title", "bench"}, {"role", "server"},
              {"requirements", {"BASE-06"}}, {"level", "MUST"}, {"fixture", "none"}};
  json st = json::array();
  std::vector<std::string> frames;
  st.push_back({{"request", {{"method", "initialize"},
                             {"params", {{"protocolVersion", version}, {"capabilities", json::object()},
                                         {"clientInfo", {{"name", "bench"}, {"version", "1"}}}}}}},
                {"expect", {{"result", {{"protocolVersion", version}}}}}});
  frames.push_back(json({{"jsonrpc", "2.0"}, {"id", 1},
                         {"result", {{"protocolVersion", version}, {"capabilities", {{"tools", json::object()}}},
                                     {"serverInfo", {{"name", "bench"}, {"version", "1"}}}}}})
                       .dump());
  st.push_back({{"notify", {{"method", "notifications/initialized"}}}});
  std::vector<std::string> answers;  // the answer texts alone, for the bare parse
  for (std::size_t i = 0; i < steps; ++i) {
    const Pair& p = pairs[i % pairs.size()];
    json req = {{"method", p.method}};
    if (!p.params.is_null()) req["params"] = p.params;
    json expect = p.response.contains("error") ? json{{"error", {{"code", {{"$type", "integer"}}}}}}
                                               : json{{"result", {{"$type", "object"}}}};
    // "invalid": the recorded requests include deliberately malformed ones, and the outgoing
    // schema check is not what is measured here (the answers are).
    st.push_back({{"request", req}, {"expect", expect}, {"invalid", true}});
    json resp = p.response;
    resp["id"] = static_cast<long long>(i + 2);
    frames.push_back(resp.dump());
    answers.push_back(frames.back());
  }
  doc["steps"] = st;
  auto loaded = scenario::load_scenario_text(doc.dump(), "bench-message-overhead.json");
  if (loaded.scenarios.empty()) {
    for (const auto& e : loaded.errors) std::cerr << e.text() << "\n";
    return 2;
  }
  scenario::RunConfig cfg;
  cfg.proposed_version = version;
  cfg.timeout_ms = 2000;
  cfg.startup_timeout_ms = 2000;
  cfg.schemas = &protocol::SchemaRegistry::builtin();
  cfg.catalog = &scenario::RequirementCatalog::builtin();
  cfg.target.description = "scripted";
  cfg.target.make = [&frames](const std::string&, const std::map<std::string, std::string>&) {
    return std::make_unique<ScriptedTarget>(&frames);
  };

  // Warm-up (schemas compiled, caches filled), and proof that every step really matched.
  auto first = scenario::run_scenario(loaded.scenarios.front(), cfg);
  if (first.verdict != Verdict::Pass) {
    std::cerr << "the bench scenario did not pass (" << verdict_name(first.verdict) << " " << first.reason << ")";
    for (const auto& f : first.findings) std::cerr << "\n  " << f.message;
    std::cerr << "\n";
    return 1;
  }
  std::size_t bytes = 0;
  for (const auto& a : answers) bytes += a.size();

  double harness_s = 0, bare_s = 0;
  std::size_t sink = 0;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    sink += harness_round(loaded.scenarios.front(), cfg);
    harness_s += seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    sink += bare_parse_round(answers);
    bare_s += seconds_since(t0);
  }
  double n = static_cast<double>(steps) * rounds;
  fmt::print("{} recorded request/answer pairs, {} steps x {} rounds, answers {:.0f} bytes on average\n",
             pairs.size(), steps, rounds, static_cast<double>(bytes) / static_cast<double>(steps));
  fmt::print("harness (request -> framed, parsed, classified, monitored, validated, matched answer): "
             "{:.2f} us/message, {:.0f} messages/s\n",
             harness_s / n * 1e6, n / harness_s);
  fmt::print("bare nlohmann::json::parse of the same answers: {:.2f} us/message, {:.0f} messages/s\n",
             bare_s / n * 1e6, n / bare_s);
  fmt::print("ratio harness/bare parse: {:.2f} (target <= 3)  [{}]\n", harness_s / bare_s, sink % 10);
  return 0;
}
