#include "stop_signal.hpp"

#include "mcpref/stop_signals.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace project_chat {

namespace {

std::mutex g_mutex;
std::condition_variable g_changed;
int g_signal = 0;
// Lives as long as the process (never destroyed: the waiting thread uses it to the end). Held by a
// global so LeakSanitizer sees it reachable rather than leaked.
mcpref::StopSignals* g_signals = nullptr;

}  // namespace

void install_stop_signals() {
  g_signals = new mcpref::StopSignals();
  std::thread([signals = g_signals] {
    int sig = signals->wait();
    {
      std::lock_guard lock(g_mutex);
      g_signal = sig;
    }
    g_changed.notify_all();
  }).detach();
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
