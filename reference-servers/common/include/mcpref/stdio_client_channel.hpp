// ClientChannel over a child process speaking newline-delimited JSON-RPC on its stdin/stdout:
// how every reference client reaches a stdio MCP server.
#pragma once

#include "mcpref/client_channel.hpp"
#include "mcpref/line_reader.hpp"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace mcpref {

struct StdioClientOptions {
  // The server: `argv` when given (run directly, PATH searched), else `command` run by
  // `/bin/sh -c`. Either way the child gets its own process group, so close() reaches every
  // process it starts.
  std::string command;
  std::vector<std::string> argv;
  std::string workdir;  // empty: ours
  std::size_t max_line_bytes = kDefaultMaxLineBytes;
  // The last this-many bytes of the server's stderr are kept for error messages.
  std::size_t stderr_tail_bytes = 4096;
};

class StdioClientChannel : public ClientChannel {
 public:
  explicit StdioClientChannel(StdioClientOptions options);
  ~StdioClientChannel() override;  // close(500 ms)
  StdioClientChannel(const StdioClientChannel&) = delete;
  StdioClientChannel& operator=(const StdioClientChannel&) = delete;

  // Starts the process. The timeout bounds nothing here (spawning does not wait for the
  // server); a program that cannot be started throws ChannelClosed at once. SIGPIPE is ignored
  // process-wide from here on, so a server that dies under a write is an error, not our death.
  void open(std::chrono::milliseconds timeout) override;
  Json request(const std::string& method, const Json& params, std::chrono::milliseconds timeout) override;
  void notify(const std::string& method, const Json& params) override;
  bool is_open() const override;
  void close(std::chrono::milliseconds grace) override;

  pid_t pid() const { return pid_; }
  // The end of what the server wrote to stderr (at most stderr_tail_bytes).
  std::string stderr_tail() const;
  // Lines from the server that were not JSON-RPC, and responses nobody waited for (late
  // answers to timed-out requests): counted, never fatal.
  std::size_t bad_lines() const { return bad_lines_; }
  std::size_t late_responses() const { return late_responses_; }

 private:
  struct Pending {
    bool done = false;
    Json response;
  };

  void read_stdout();
  void read_stderr();
  void handle_line(const std::string& line);
  void reply_to_request(const Json& id, const std::string& method, const Json& params);
  // Writes one line within `timeout`; throws ChannelClosed when it cannot.
  void write_line(const Json& message, std::chrono::milliseconds timeout);
  // The connection is gone: every waiting request fails with `reason`.
  void mark_closed(const std::string& reason);
  std::string describe_exit();
  bool wait_exit(std::chrono::milliseconds limit);
  void stop_threads();

  StdioClientOptions options_;
  pid_t pid_ = -1;
  int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
  int wake_[2] = {-1, -1};  // written to when the reader threads must stop
  std::thread stdout_thread_, stderr_thread_;

  mutable std::mutex mutex_;  // guards everything below, and the exit status
  std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Pending>> pending_;  // by id as JSON text
  long long next_id_ = 1;
  bool open_ = false;
  std::string closed_reason_;
  std::optional<int> wait_status_;
  std::string stderr_tail_;

  std::mutex write_mutex_;  // one line at a time on the server's stdin
  std::atomic<std::size_t> bad_lines_{0}, late_responses_{0};
};

}  // namespace mcpref
