#include "harness/fuzz/campaign.hpp"

#include "harness/fuzz/finding_writer.hpp"
#include "harness/fuzz/generator.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/runner.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

namespace mcpspec::fuzz {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxHistoryBytes = 16 << 20;  // settle early rather than hold more

struct Shared {
  const CampaignOptions& o;
  Deadline end;
  std::mutex mu;
  std::atomic<std::size_t> messages{0};
  std::atomic<bool> stop{false};
  std::atomic<long long> minimizing_us{0};
  std::map<std::string, std::size_t> by_pre_key;   // key at detection -> finding index
  std::map<std::string, std::size_t> by_key;       // key after minimization -> finding index
  std::set<std::string> in_progress;
  CampaignResult result;
  explicit Shared(const CampaignOptions& opts)
      : o(opts), end(Deadline::after_ms(static_cast<long long>(opts.duration_s * 1000))) {}
  bool done() const {
    return stop.load() || end.passed() || (o.max_messages && messages.load() >= o.max_messages);
  }
};

SessionSettings settings_of(const CampaignOptions& o, bool list_tools) {
  SessionSettings s;
  s.version = o.version;
  s.timeout_ms = o.timeout_ms;
  s.startup_timeout_ms = o.startup_timeout_ms;
  s.window = std::max<std::size_t>(1, o.window);
  s.list_tools = list_tools;
  s.schemas = o.schemas;
  return s;
}

// Runs the saved scenario through the ordinary runner, as `mcpspec run` would.
std::string verify(const CampaignOptions& o, const json& scenario_doc, const std::string& file) {
  auto loaded = scenario::load_scenario_text(scenario_doc.dump(2), file);
  if (!loaded.errors.empty()) return "invalid scenario: " + loaded.errors.front().text();
  if (loaded.scenarios.empty()) return "invalid scenario";
  scenario::RunConfig rc;
  rc.target.description = o.target;
  TransportFactory make = o.make;
  rc.target.make = [make](const std::string&, const std::map<std::string, std::string>&) { return make(); };
  rc.proposed_version = o.version;
  rc.timeout_ms = o.timeout_ms;
  rc.startup_timeout_ms = o.startup_timeout_ms;
  rc.schemas = o.schemas;
  rc.catalog = &scenario::RequirementCatalog::builtin();
  auto r = scenario::run_scenario(loaded.scenarios.front(), rc);
  std::string v = verdict_name(r.verdict);
  if (r.verdict == Verdict::Error && !r.reason.empty()) v += " (" + r.reason + ")";
  return v;
}

void handle(Shared& sh, std::vector<Anomaly>& anomalies, const std::vector<FuzzMessage>& history,
            const std::string& version, int job_index) {
  const CampaignOptions& o = sh.o;
  for (const auto& a : anomalies) {
    std::string pre = a.key();
    {
      std::lock_guard<std::mutex> lk(sh.mu);
      ++sh.result.stats.anomalies;
      if (auto it = sh.by_pre_key.find(pre); it != sh.by_pre_key.end()) {
        ++sh.result.findings[it->second].duplicates;
        continue;
      }
      if (sh.in_progress.count(pre) || sh.result.findings.size() >= o.max_findings) continue;
      sh.in_progress.insert(pre);
    }
    auto t0 = Clock::now();
    // Minimizing may run past --duration, but only by --minimize-ms in all.
    MinimizeBudget budget = o.minimize;
    budget.until = Deadline(sh.end.at() + std::chrono::milliseconds(o.minimize.max_ms));
    Minimized mz = minimize(history, a, session_replayer(o.make, settings_of(o, false)), budget, version, *o.schemas);
    sh.minimizing_us += std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0).count();
    std::string key = mz.anomaly.key();

    std::unique_lock<std::mutex> lk(sh.mu);
    sh.in_progress.erase(pre);
    if (auto it = sh.by_key.find(key); it != sh.by_key.end()) {
      ++sh.result.findings[it->second].duplicates;
      sh.by_pre_key[pre] = it->second;
      continue;
    }
    SavedFinding f;
    f.anomaly = mz.anomaly;
    f.messages = mz.messages;
    f.reproduced = mz.reproduced;
    f.replays = mz.replays;
    f.first_seen_at = sh.messages.load();
    f.job = job_index;
    std::size_t index = sh.result.findings.size();
    sh.by_key[key] = index;
    sh.by_pre_key[pre] = index;
    sh.result.findings.push_back(f);
    sh.result.stats.findings = sh.result.findings.size();
    lk.unlock();

    if (o.findings_dir.empty()) continue;
    FindingContext ctx{o.version, o.seed, f.first_seen_at, o.timeout_ms, o.target, job_index};
    json doc = finding_scenario(mz, ctx);
    std::string file = (fs::path(o.findings_dir) / finding_file_name(mz.anomaly)).string();
    std::string verdict;
    {
      std::ofstream out(file);
      out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
      if (!out) file.clear();
    }
    bool in_time = Clock::now() < sh.end.at() + std::chrono::milliseconds(o.minimize.max_ms);
    if (!file.empty() && o.verify_replay && in_time) verdict = verify(o, doc, file);
    lk.lock();
    sh.result.findings[index].file = file;
    sh.result.findings[index].replay_verdict = verdict;
  }
  anomalies.clear();
}

// `j` is the job's index (CampaignOptions::first_job + its place in this run).
void job(Shared& sh, int j) {
  const CampaignOptions& o = sh.o;
  Rng rng(o.seed * 0x100000001B3ULL + static_cast<std::uint64_t>(j));
  GeneratorInputs gi;
  gi.version = o.version;
  gi.schemas = o.schemas;
  gi.seeds = o.seeds;
  gi.call_tools = o.call_tools;
  Generator gen(gi);
  std::unique_ptr<LiveSession> s;
  std::vector<Anomaly> anomalies;
  int start_failures = 0;
  std::size_t frames = 0;
  LatencyHistogram latency;
  auto retire = [&] {
    if (!s) return;
    frames += s->frames_received();
    latency.merge(s->latency());
    s->stop();
  };
  while (!sh.done()) {
    if (!s || !s->alive()) {
      if (s) {
        std::lock_guard<std::mutex> lk(sh.mu);
        ++sh.result.stats.restarts[s->death().empty() ? "other" : s->death()];
      }
      retire();
      s = std::make_unique<LiveSession>(o.make, settings_of(o, true));
      try {
        s->start(anomalies);
        start_failures = 0;
      } catch (const transport::TransportError& e) {
        std::lock_guard<std::mutex> lk(sh.mu);
        ++sh.result.stats.restarts["start failed"];
        if (++start_failures >= 3) {
          sh.result.errors.push_back("job " + std::to_string(j) + ": " + e.what());
          return;
        }
        continue;
      }
      if (s->alive()) {
        gen.set_version(s->negotiated());
        gen.set_tools(s->tools());
        std::lock_guard<std::mutex> lk(sh.mu);
        sh.result.negotiated = s->negotiated();
        sh.result.tools = s->tools().size();
        sh.result.callable_tools = gen.callable_tools();
      }
      if (!anomalies.empty()) {
        handle(sh, anomalies, s->history(), s->negotiated(), j);
        if (s->alive()) s->clear_history();
      }
      continue;
    }
    std::vector<FuzzMessage> batch;
    try {
      batch = gen.next(rng);
    } catch (const std::exception& e) {
      // A generator bug must not end the campaign; it is counted and reported.
      std::lock_guard<std::mutex> lk(sh.mu);
      if (sh.result.errors.size() < 20) sh.result.errors.push_back(std::string("generator: ") + e.what());
      continue;
    }
    for (auto& m : batch) {
      if (!s->alive()) break;
      if (m.id) gen.note_answered(*m.id);
      s->send(m, anomalies);
      ++sh.messages;
    }
    if (s->alive() && (s->history().size() >= o.checkpoint_every || s->history_bytes() > kMaxHistoryBytes)) {
      s->settle(anomalies);
      if (anomalies.empty() && s->alive()) s->clear_history();
    }
    if (!anomalies.empty()) {
      std::vector<FuzzMessage> history = s->history();
      if (s->alive()) s->settle(anomalies);  // let what is owed arrive before judging
      handle(sh, anomalies, history, s->negotiated(), j);
      if (s->alive()) s->clear_history();
    }
  }
  if (s && s->alive()) {
    s->settle(anomalies);
    if (!anomalies.empty()) handle(sh, anomalies, s->history(), s->negotiated(), j);
  }
  retire();
  std::lock_guard<std::mutex> lk(sh.mu);
  sh.result.stats.frames_in += frames;
  sh.result.latency.merge(latency);
}

}  // namespace

CampaignResult run_campaign(const CampaignOptions& o) {
  if (!o.findings_dir.empty()) fs::create_directories(o.findings_dir);
  Shared sh(o);
  auto t0 = Clock::now();
  std::vector<std::thread> threads;
  std::atomic<int> running{std::max(1, o.jobs)};
  for (int j = o.first_job; j < o.first_job + std::max(1, o.jobs); ++j)
    threads.emplace_back([&sh, &running, j] {
      try {
        job(sh, j);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lk(sh.mu);
        sh.result.errors.push_back("job " + std::to_string(j) + ": " + e.what());
      }
      --running;
    });
  auto last = Clock::now();
  while (running.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (o.on_progress && Clock::now() - last >= std::chrono::seconds(1)) {
      last = Clock::now();
      CampaignStats snap;
      {
        std::lock_guard<std::mutex> lk(sh.mu);
        snap = sh.result.stats;
      }
      snap.messages = sh.messages.load();
      snap.elapsed_s = ms_since(t0) / 1000;
      snap.sending_s = snap.elapsed_s - static_cast<double>(sh.minimizing_us.load()) / 1e6 / std::max(1, o.jobs);
      o.on_progress(snap);
    }
  }
  for (auto& t : threads) t.join();
  CampaignResult r = std::move(sh.result);
  r.stats.messages = sh.messages.load();
  r.stats.elapsed_s = ms_since(t0) / 1000;
  r.stats.sending_s = r.stats.elapsed_s - static_cast<double>(sh.minimizing_us.load()) / 1e6 / std::max(1, o.jobs);
  r.stats.findings = r.findings.size();
  return r;
}

}  // namespace mcpspec::fuzz
