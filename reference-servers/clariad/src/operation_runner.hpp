#pragma once
// long_running_operation: each operation runs on its own worker thread and streams its
// updates through the shared LineSink, so the reader keeps answering other requests meanwhile.
//
// Legacy mode (invoke_tool), as the Clariad document shows: several responses with the same
// id carrying status "in_progress", then one final response without status.
// MCP mode (tools/call): one response per id as MCP requires; progress goes out as
// notifications/progress when the request carried a progressToken.
#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "json_types.hpp"
#include "line_sink.hpp"

namespace clariad {

enum class StreamMode { Legacy, Mcp };

struct OperationRequest {
  OJson id;
  std::string key;  // id_key(id): tells "7" from 7
  std::string name;
  double duration_seconds = 0;
  StreamMode mode = StreamMode::Legacy;
  std::optional<OJson> progress_token;  // MCP mode only
  bool progress_message = true;         // MCP: "message" in progress notifications (2025-03-26+)
};

// When the updates go out: update k (0-based) at k * duration / updates seconds after the
// start; the final response at `duration`. One update per second of duration, at least 5 and
// at most 60, so a 1-second operation still shows several updates.
struct OperationPlan {
  std::size_t updates = 0;
  std::vector<double> offsets;  // seconds, one per in_progress update
};

inline constexpr std::size_t kMinUpdates = 5;
inline constexpr std::size_t kMaxUpdates = 60;

OperationPlan plan_operation(double duration_seconds);
std::string progress_text(const std::string& name, std::size_t step, const OperationPlan& plan, double duration_seconds);
std::string completion_text(const std::string& name, const OperationPlan& plan, double duration_seconds);

class OperationRunner {
 public:
  OperationRunner(LineSink& sink, std::size_t max_running);
  ~OperationRunner();
  OperationRunner(const OperationRunner&) = delete;
  OperationRunner& operator=(const OperationRunner&) = delete;

  // Throws RpcError: InvalidRequest when an operation with the same id is still streaming
  // (two streams with one id could not be told apart), InternalError when max_running
  // operations are already running.
  void start(OperationRequest request);

  // Stops a running operation without a final response. False when none had that key.
  bool cancel(const std::string& key);
  void cancel_all();

  // Blocks until every operation has finished (or was cancelled).
  void wait_all();

  std::size_t running() const;
  bool is_running(const std::string& key) const;
  std::size_t max_running() const { return max_running_; }

 private:
  struct Slot {
    std::jthread thread;
    bool done = false;
  };

  void run(std::stop_token stop, OperationRequest request);
  std::vector<std::jthread> take_finished_locked();

  LineSink& sink_;
  std::size_t max_running_;
  mutable std::mutex mutex_;
  std::condition_variable_any timer_;    // workers sleep here; a stop request wakes them
  std::condition_variable_any changed_;  // signalled whenever an operation finishes
  std::map<std::string, Slot> slots_;
};

}  // namespace clariad
