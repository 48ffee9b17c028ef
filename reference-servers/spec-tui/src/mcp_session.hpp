// spec-tui's MCP session, as the client contract (seed 000) describes it: initialize with
// protocol 2025-11-25, sampling and clientInfo spec-tui; notifications/initialized; tools/list;
// tools/call with a progress token; $/cancelRequest on timeout or when the user cancels;
// shutdown then exit at the end. Retries recoverable failures with bounded backoff. Knows
// nothing of the terminal: the ncurses front end and --batch both drive it.
#pragma once

#include "output_log.hpp"
#include "progress_model.hpp"

#include "mcpref/backoff.hpp"
#include "mcpref/client_channel.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace spectui {

inline constexpr const char* kClientName = "spec-tui";
inline constexpr const char* kClientVersion = "0.1.0";
inline constexpr const char* kProtocolVersion = "2025-11-25";

// Why a command did not produce a result; what() is the one line shown to the user (details
// went to the log).
class CommandFailed : public std::runtime_error {
 public:
  enum class Kind { Timeout, Cancelled, ToolError, InvalidInput, Connection, Protocol };
  CommandFailed(Kind kind, const std::string& message, bool recoverable = false)
      : std::runtime_error(message), kind_(kind), recoverable_(recoverable) {}
  Kind kind() const { return kind_; }
  // Worth trying again as it is (the server died, or failed internally).
  bool recoverable() const { return recoverable_; }

 private:
  Kind kind_;
  bool recoverable_;
};

struct SessionOptions {
  std::chrono::milliseconds timeout{60000};
  std::chrono::milliseconds shutdown_timeout{5000};
  int retries = 2;
  mcpref::BackoffPolicy backoff{};
};

class McpSession {
 public:
  using ChannelFactory = std::function<std::unique_ptr<mcpref::ClientChannel>()>;
  // Called on the channel's reader thread after each accepted progress update: keep it short.
  using ProgressListener = std::function<void(const ProgressModel&)>;

  McpSession(ChannelFactory factory, SessionOptions options, OutputLog& log);
  ~McpSession();

  // Opens the channel and runs the handshake and tools/list (retrying recoverable failures).
  void connect();
  bool connected() const;
  std::vector<std::string> tools() const;
  std::string server_description() const;  // "speckit-agent 0.1.0 (protocol 2025-11-25)"

  // Calls a tool and returns its text. Throws CommandFailed.
  std::string call_tool(const std::string& tool, const mcpref::Json& arguments, ProgressListener listener);
  // From any thread while call_tool runs: asks the server to stop it ($/cancelRequest).
  // False when nothing is running.
  bool cancel();
  // shutdown request, then the exit notification, then the channel is closed. Never throws.
  void shutdown();
  // From any thread (a signal): closes the connection, even one still being made, so whatever
  // waits on it ends now; no retry follows. The session is unusable afterwards.
  void abort();

 private:
  void connect_once();
  std::string call_once(const std::string& tool, const mcpref::Json& arguments);
  void on_notification(const std::string& method, const mcpref::Json& params);
  void drop_channel();

  ChannelFactory factory_;
  SessionOptions options_;
  OutputLog& log_;

  mutable std::mutex mutex_;  // guards everything below
  std::shared_ptr<mcpref::ClientChannel> channel_;
  std::shared_ptr<mcpref::ClientChannel> connecting_;  // during the handshake
  bool aborted_ = false;
  std::vector<std::string> tools_;
  std::string server_;
  long long calls_ = 0;
  std::optional<std::string> progress_token_;  // of the running call
  std::optional<mcpref::Json> running_id_;     // its request id, once sent
  bool cancel_requested_ = false;
  ProgressModel progress_;
  ProgressListener listener_;
};

}  // namespace spectui
