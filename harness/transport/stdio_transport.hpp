#pragma once
// The stdio transport: the target is a child process; messages are newline-delimited JSON on its
// stdin/stdout; its stderr is drained all the time (a full stderr pipe would block the target) and
// reported as events for the wire log.
#include "harness/transport/child_process.hpp"
#include "harness/transport/line_framer.hpp"
#include "harness/transport/transport.hpp"

#include <deque>

namespace mcpspec::transport {

struct StdioOptions {
  SpawnOptions spawn;
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  std::size_t max_stderr_line = 64 * 1024;
  int stop_grace_ms = 500;  // how long stop() waits after closing stdin, and again after SIGTERM
};

class StdioTransport : public Transport {
 public:
  explicit StdioTransport(StdioOptions options);
  ~StdioTransport() override;

  std::string name() const override { return "stdio"; }
  void start() override;
  void send(const std::string& frame, Deadline deadline) override;
  void send_raw(const std::string& bytes, Deadline deadline) override;
  Event receive(Deadline deadline) override;
  void close_input() override;
  void signal(int sig) override;
  std::optional<ExitStatus> exit_status() override;
  void stop() override;
  std::string describe() const override;

 private:
  void write_all(const std::string& bytes, Deadline deadline);
  // Reads whatever is available on stdout/stderr (waiting at most until `deadline`) into events_.
  void pump(Deadline deadline);
  void drain_fd(int& fd, LineFramer& framer, bool is_stdout);

  StdioOptions options_;
  ChildProcess child_;
  LineFramer out_framer_, err_framer_;
  std::deque<Event> events_;
  bool stdout_closed_ = false, closed_reported_ = false, exit_reported_ = false;
};

}  // namespace mcpspec::transport
