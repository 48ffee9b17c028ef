#pragma once
// For commands that serve until told to stop (`proxy --listen`, `auth-server`): SIGINT, SIGTERM
// and SIGHUP are blocked from construction on, before any serving thread starts (threads inherit
// the mask), so only wait() takes them and no server thread dies of one. They stay blocked after
// wait() returns, to the end of the process: a second Ctrl-C while the command writes its reports
// must not kill it halfway through a file.
#include <csignal>

namespace mcpspec::cli {

class EndSignals {
 public:
  EndSignals();
  EndSignals(const EndSignals&) = delete;
  EndSignals& operator=(const EndSignals&) = delete;

  // Returns when one of the signals arrives or, with `seconds` > 0, when that many have passed.
  void wait(double seconds = 0) const;

 private:
  sigset_t ends_;
};

}  // namespace mcpspec::cli
