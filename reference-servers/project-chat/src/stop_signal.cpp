#include "stop_signal.hpp"

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <pthread.h>
#include <thread>

namespace project_chat {

namespace {

std::mutex g_mutex;
std::condition_variable g_changed;
int g_signal = 0;

sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

}  // namespace

void install_stop_signals() {
  sigset_t set = stop_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    int sig = 0;
    while (sigwait(&set, &sig) != 0) {
    }
    {
      std::lock_guard lock(g_mutex);
      g_signal = sig;
    }
    g_changed.notify_all();
  }).detach();  // lives as long as the process; it holds nothing that needs cleaning up
}

bool stop_requested() {
  std::lock_guard lock(g_mutex);
  return g_signal != 0;
}

int stop_signal_number() {
  std::lock_guard lock(g_mutex);
  return g_signal;
}

bool sleep_unless_stopped(std::chrono::milliseconds duration) {
  std::unique_lock lock(g_mutex);
  return g_changed.wait_for(lock, duration, [] { return g_signal != 0; });
}

}  // namespace project_chat
