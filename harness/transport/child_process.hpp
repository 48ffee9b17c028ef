#pragma once
// A child process in its own process group with pipes on stdin, stdout and stderr. The group is
// what gets signalled and reaped, so grandchildren a shell or a server starts die with it.
#include "harness/transport/transport.hpp"

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcpspec::transport {

struct SpawnOptions {
  std::string command;                          // run by /bin/sh -c
  std::string workdir;                          // empty: inherit
  std::map<std::string, std::string> env;       // added to (overriding) the harness's environment
};

class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  // Throws TransportError when the pipes or the fork fail. A command that does not exist still
  // starts (the shell reports it on stderr and exits 127), which the runner observes as an exit.
  void spawn(const SpawnOptions& options);

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return in_; }
  int stdout_fd() const { return out_; }
  int stderr_fd() const { return err_; }
  void close_stdin();
  void close_stdout();
  void close_stderr();

  // Non-blocking check; caches the status once reaped.
  std::optional<ExitStatus> poll_exit();
  void signal_group(int sig);
  // Close stdin, wait `grace_ms`, SIGTERM the group, wait `grace_ms`, SIGKILL the group; reap the
  // child and every member of its group that we can. Bounded; idempotent.
  void terminate(int grace_ms);

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::optional<ExitStatus> status_;
  bool group_killed_ = false;
};

// Sets up process-wide settings the transports rely on: SIGPIPE ignored (a dead target must give
// EPIPE, not kill the harness) and this process as a child subreaper (orphaned grandchildren of a
// target are re-parented to us, so we can reap them), and SIGINT, SIGTERM and SIGHUP end every
// process group we started before the harness itself ends by that signal (Ctrl-C or a CI timeout
// must not leave servers running: an HTTP server does not notice its stdin closing). Idempotent.
void prepare_process_handling();

}  // namespace mcpspec::transport
