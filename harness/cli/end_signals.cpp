#include "harness/cli/end_signals.hpp"

#include <pthread.h>

#include <ctime>
#include <initializer_list>

namespace mcpspec::cli {

EndSignals::EndSignals() {
  sigemptyset(&ends_);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&ends_, sig);
  pthread_sigmask(SIG_BLOCK, &ends_, nullptr);
}

void EndSignals::wait(double seconds) const {
  if (seconds <= 0) {
    int sig = 0;
    sigwait(&ends_, &sig);
    return;
  }
  timespec limit{};
  limit.tv_sec = static_cast<time_t>(seconds);
  limit.tv_nsec = static_cast<long>((seconds - static_cast<double>(limit.tv_sec)) * 1e9);
  sigtimedwait(&ends_, nullptr, &limit);
}

}  // namespace mcpspec::cli
