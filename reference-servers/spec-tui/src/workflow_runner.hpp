// The core both front ends share: one configured session, the workflow commands run on it, the
// progress of the running one, and the output lines (shown and logged). Thread-safe, so the
// ncurses front end can run a command on a worker thread while it draws and reads keys.
#pragma once

#include "config.hpp"
#include "mcp_session.hpp"
#include "output_log.hpp"
#include "progress_model.hpp"
#include "workflow_commands.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace spectui {

struct RunOutcome {
  bool ok = false;
  bool recoverable = false;  // a retry may succeed (shown as a hint in the TUI)
  CommandFailed::Kind kind = CommandFailed::Kind::ToolError;
  std::string message;       // the result text, or the user-facing error
};

class WorkflowRunner {
 public:
  // The session's channel comes from the configuration (stdio command or http endpoint).
  WorkflowRunner(const Config& config, OutputLog& log);
  // Any channel (tests inject one).
  WorkflowRunner(const Config& config, OutputLog& log, McpSession::ChannelFactory factory);
  ~WorkflowRunner();

  // Connects now (the TUI does this at start to show the server); errors become the outcome.
  RunOutcome connect();
  // Runs one command to its end; never throws.
  RunOutcome run(const WorkflowCommand& command, const std::string& input);
  // From another thread: asks the agent to stop the running command.
  bool cancel();
  // Ends the session (shutdown, exit). Idempotent.
  void finish();
  // From another thread: ends the connection now (see McpSession::abort).
  void abort() { session_.abort(); }

  bool busy() const { return busy_; }
  ProgressModel progress() const;
  std::string server_description() const { return session_.server_description(); }
  const Config& config() const { return config_; }
  OutputLog& log() { return log_; }

 private:
  Config config_;
  OutputLog& log_;
  McpSession session_;
  std::atomic<bool> busy_{false};
  mutable std::mutex mutex_;
  ProgressModel progress_;
};

// The ChannelFactory a configuration describes.
McpSession::ChannelFactory channel_factory(const Config& config);

}  // namespace spectui
