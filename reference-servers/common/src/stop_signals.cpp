#include "mcpref/stop_signals.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace mcpref {

namespace {

int g_pipe[2] = {-1, -1};
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

void on_signal(int signal) {
  int saved = errno;
  unsigned char byte = static_cast<unsigned char>(signal);
  [[maybe_unused]] ssize_t n = ::write(g_pipe[1], &byte, 1);
  errno = saved;
}

}  // namespace

StopSignals::StopSignals() {
  if (::pipe2(g_pipe, O_CLOEXEC) != 0) g_pipe[0] = g_pipe[1] = -1;
  std::signal(SIGPIPE, SIG_IGN);
  struct sigaction action {};
  action.sa_handler = on_signal;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (int s : kStopSignals) ::sigaction(s, &action, nullptr);
}

StopSignals::~StopSignals() {
  for (int s : kStopSignals) std::signal(s, SIG_DFL);
  for (int& fd : g_pipe) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
}

int StopSignals::wait() {
  unsigned char byte = 0;
  for (;;) {
    ssize_t n = ::read(g_pipe[0], &byte, 1);
    if (n == 1) return byte;
    if (n < 0 && errno == EINTR) continue;
    return 0;
  }
}

void StopSignals::cancel() {
  unsigned char zero = 0;
  [[maybe_unused]] ssize_t n = ::write(g_pipe[1], &zero, 1);
}

}  // namespace mcpref
