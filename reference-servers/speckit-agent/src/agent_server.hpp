// The speckit agent's stdio loop. Unlike a plain request/answer server it keeps reading while
// tools run: each tools/call works on its own thread, so progress can flow, a $/cancelRequest or
// notifications/cancelled can stop it, and ping or shutdown are answered meanwhile.
#pragma once

#include "cancellation.hpp"

#include "mcpref/dispatcher.hpp"
#include "mcpref/json.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace speckit {

inline constexpr const char* kServerName = "speckit-agent";
inline constexpr const char* kServerVersion = "0.1.0";

struct AgentOptions {
  int in_fd = 0;
  int out_fd = 1;
  // Pause between a workflow's steps: the time a client has to see progress and to cancel.
  std::chrono::milliseconds step_pause{100};
  // A call still running after this is stopped and answered -32001.
  std::chrono::milliseconds tool_timeout{60000};
  // More concurrent calls than this are refused with -32000 rather than piling up threads.
  std::size_t max_running_calls = 8;
};

class AgentServer {
 public:
  explicit AgentServer(AgentOptions options);
  ~AgentServer();
  AgentServer(const AgentServer&) = delete;
  AgentServer& operator=(const AgentServer&) = delete;

  // Serves until the exit notification (status 0 after shutdown, 1 without, as the document's
  // LSP-style lifecycle has it) or end of input (0). Running calls are stopped before returning.
  int run();

 private:
  struct RunningCall {
    std::string id_key;  // the request id as JSON text
    std::shared_ptr<CancelToken> token;
    std::thread thread;
    std::atomic<bool> finished{false};
  };

  void register_methods();
  void handle_line(const std::string& line);
  void start_call(const mcpref::Json& id, const mcpref::Json& params);
  void work(RunningCall& call, mcpref::Json id, mcpref::Json params);
  void cancel(const mcpref::Json& id, StopReason reason);
  void stop_all(StopReason reason);
  void reap_finished();
  void send(const mcpref::Json& message);

  AgentOptions options_;
  mcpref::Dispatcher dispatcher_;
  std::mutex out_mutex_;
  std::mutex calls_mutex_;
  std::list<std::unique_ptr<RunningCall>> calls_;
  std::atomic<bool> shutdown_requested_{false};
  std::optional<int> exit_status_;
};

}  // namespace speckit
