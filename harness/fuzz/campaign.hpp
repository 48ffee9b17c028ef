#pragma once
// A fuzzing campaign: --jobs independent sessions (each its own target process and random
// stream), findings deduplicated across them, minimized and saved as scenario files, and the
// numbers for the report.
#include "harness/fuzz/anomaly.hpp"
#include "harness/fuzz/latency.hpp"
#include "harness/fuzz/live_session.hpp"
#include "harness/scenario/model.hpp"
#include "harness/fuzz/minimizer.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mcpspec::fuzz {

struct CampaignOptions {
  TransportFactory make;               // a fresh connection to the target
  std::string target;                  // the command or URL, for reports
  std::string version;                 // proposed protocol version
  const protocol::SchemaRegistry* schemas = nullptr;
  double duration_s = 60;              // stop after this long (always finite)
  std::size_t max_messages = 0;        // stop after this many messages in total (0: no limit)
  std::uint64_t seed = 1;
  int jobs = 1;
  // Job j of this run has the index first_job + j; its messages come from (seed, index) alone, so
  // machines that share a seed but not their indexes send different streams, and one job of any
  // run can be run again on its own (--jobs 1 --job-index K).
  int first_job = 0;
  int timeout_ms = 2000;
  int startup_timeout_ms = 20000;
  std::size_t window = 64;             // 1 = lock-step
  std::size_t checkpoint_every = 256;  // settle (ping + drain) after this many messages
  scenario::CallTools call_tools = scenario::CallTools::ReadOnly;
  std::vector<nlohmann::json> seeds;   // messages from scenarios and --corpus
  std::string findings_dir;            // where finding scenarios go ("" = do not write)
  std::size_t max_findings = 50;       // distinct findings kept (each is minimized once)
  MinimizeBudget minimize;
  bool verify_replay = true;           // run each saved scenario through the normal runner
  // Progress: called about once a second from the campaign's thread.
  std::function<void(const struct CampaignStats&)> on_progress;
};

struct SavedFinding {
  Anomaly anomaly;
  std::vector<FuzzMessage> messages;   // the minimized reproducer
  std::string file;                    // the scenario file ("" when not written)
  bool reproduced = false;
  int replays = 0;
  std::string replay_verdict;          // what `mcpspec run` made of the file ("" when not checked)
  std::size_t duplicates = 0;          // how often it was seen again
  std::size_t first_seen_at = 0;       // message count when first seen
  int job = 0;                         // index of the job that found it (its stream: seed, job)
};

struct CampaignStats {
  std::size_t messages = 0;
  std::size_t frames_in = 0;
  std::size_t anomalies = 0;           // raw, before deduplication
  std::size_t findings = 0;
  std::map<std::string, std::size_t> restarts;   // cause -> count ("crash", "hang", "start failed")
  double elapsed_s = 0;
  double sending_s = 0;                // elapsed minus time spent minimizing
};

struct CampaignResult {
  CampaignStats stats;
  LatencyHistogram latency;
  std::vector<SavedFinding> findings;
  std::vector<std::string> errors;     // problems that stopped a job (target would not start ...)
  std::string negotiated;
  std::size_t tools = 0, callable_tools = 0;
};

CampaignResult run_campaign(const CampaignOptions& options);

// The report of a campaign: JSON (machine) and Markdown (people).
nlohmann::json campaign_report_json(const CampaignOptions& o, const CampaignResult& r);
std::string campaign_report_markdown(const CampaignOptions& o, const CampaignResult& r);

}  // namespace mcpspec::fuzz
