// Turning SIGINT, SIGTERM and SIGHUP into an orderly stop. The handlers only write a byte to a
// pipe, and a waiting thread does the work (stop a server, stop child processes). No signal is
// blocked, so child processes started meanwhile inherit a normal signal mask and still die of
// SIGTERM when we stop them.
#pragma once

namespace mcpref {

class StopSignals {
 public:
  // Installs the handlers (one StopSignals at a time per process).
  StopSignals();
  // Restores the default dispositions.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Blocks until a stop signal arrives (returns its number) or cancel() is called (returns 0).
  int wait();
  // Makes wait() return 0; safe from any thread.
  void cancel();
};

}  // namespace mcpref
