// slow_progress runs on its own worker thread so the reader stays free to see
// notifications/cancelled. Workers wait on a condition variable between steps, so a
// cancellation (or the end of input) takes effect at once, not at the end of a delay.
#pragma once

#include <atomic>
#include <condition_variable>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "faults.hpp"
#include "json_text.hpp"
#include "protocol_version.hpp"
#include "wire.hpp"

namespace testserver {

struct SlowJob {
  json id;
  std::optional<json> progress_token;  // string or integer, from params._meta.progressToken
  int steps = 3;
  int delay_ms = 50;
  Version version = kLatestVersion;
};

class SlowCalls {
 public:
  static constexpr std::size_t kMaxRunning = 32;
  enum class Start { started, id_in_use, too_many };

  SlowCalls(Wire& wire, Fault fault) : wire_(wire), fault_(fault) {}
  ~SlowCalls() { finish_all(); }
  SlowCalls(const SlowCalls&) = delete;
  SlowCalls& operator=(const SlowCalls&) = delete;

  Start start(SlowJob job);
  // Inside a batch the reader is busy anyway (so nothing can cancel): run on the calling
  // thread and return the CallToolResult.
  struct InlineResult {
    json result;
    std::vector<json> trailing;  // messages that must follow the response
  };
  InlineResult run_inline(const SlowJob& job);

  // notifications/cancelled: unknown or finished ids are ignored, as the spec allows.
  void cancel(const json& request_id);
  // End of input: the remaining steps of every running call are done without delay (so a
  // piped session still shows whole exchanges and the exit stays prompt), then all are joined.
  void finish_all();

 private:
  struct Running {
    std::thread thread;
    bool cancelled = false;  // guarded by mu_
    bool done = false;       // guarded by mu_
  };
  enum class Ending { finished, cancelled };
  struct StepsOutcome {
    Ending ending;
    int completed;
  };

  StepsOutcome run_steps(const SlowJob& job, const bool* cancelled);
  json final_result(const SlowJob& job, const StepsOutcome& o) const;
  json progress_notification(const SlowJob& job, long long progress, long long total) const;
  void worker(SlowJob job, Running* self);
  void reap_locked();  // join finished workers; caller holds mu_

  Wire& wire_;
  Fault fault_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool hurry_ = false;  // no more waiting between steps
  std::list<Running> running_;               // stable addresses for the workers
  std::map<std::string, Running*> by_id_;    // key: the id's JSON text, so 1 and "1" differ
};

}  // namespace testserver
