// The server this client talks to: a child process with pipes on stdin/stdout (stderr is
// inherited). Reads are non-blocking and line framed, every wait has a timeout.
#pragma once

#include <sys/types.h>

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace testclient {

class ServerProcess {
 public:
  // Starts argv[0] (looked up in PATH) with the rest as arguments. Throws std::runtime_error.
  explicit ServerProcess(const std::vector<std::string>& argv);
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Writes one line; false when the server no longer reads (EPIPE) or stdin is already closed.
  bool write_line(const std::string& line);
  // The next line from the server's stdout, waiting at most timeout_ms; nullopt on timeout or EOF.
  std::optional<std::string> read_line(int timeout_ms);
  bool stdout_closed() const { return out_ < 0 && lines_.empty(); }

  void close_stdin();
  // Waits for the exit; returns false when it did not come in time.
  bool wait_exit(int timeout_ms);
  void signal(int sig);
  // The orderly stdio shutdown: close stdin, wait, SIGTERM, wait, SIGKILL.
  void shut_down(int grace_ms);
  // Shuts the server down (as shut_down) and starts the same command again, as a host does when
  // its server ended while the host still needs it. Throws std::runtime_error.
  void restart(int grace_ms);
  pid_t pid() const { return pid_; }

 private:
  void fill(int timeout_ms);
  void spawn();  // starts argv_ with fresh pipes

  std::vector<std::string> argv_;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  bool reaped_ = false;
  std::string partial_;
  std::deque<std::string> lines_;
};

}  // namespace testclient
