#include "batch_mode.hpp"

#include "mcpref/stop_signals.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace spectui {

int run_batch(WorkflowRunner& runner, const WorkflowCommand& command, const std::string& input) {
  runner.log().on_line([](const std::string& line) {
    std::fputs((line + "\n").c_str(), stdout);
    std::fflush(stdout);
  });
  // A command missing its required input fails before the agent is even started.
  try {
    build_arguments(command, input, runner.config().spec_directory);
  } catch (const std::invalid_argument& e) {
    runner.log().line(std::string("Error: ") + e.what());
    runner.log().on_line({});
    return kExitUsage;
  }
  // SIGINT / SIGTERM cancel the running command (as the TUI's cancel key does), so the session
  // can end in order; if that has not happened within kGraceAfterSignal (nothing was running,
  // or the agent does not answer the cancel), the connection is closed so nothing waits longer.
  constexpr auto kGraceAfterSignal = std::chrono::milliseconds(300);
  mcpref::StopSignals signals;
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    if (signals.wait() == 0) return;
    runner.cancel();
    auto until = std::chrono::steady_clock::now() + kGraceAfterSignal;
    while (!done && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!done) runner.abort();
  });
  int status = kExitOk;
  RunOutcome connected = runner.connect();
  if (!connected.ok) {
    status = connected.kind == CommandFailed::Kind::Connection ? kExitNoAgent : kExitCommandFailed;
  } else {
    RunOutcome out = runner.run(command, input);
    if (!out.ok) status = out.kind == CommandFailed::Kind::InvalidInput ? kExitUsage : kExitCommandFailed;
  }
  done = true;
  runner.finish();
  signals.cancel();
  watcher.join();
  runner.log().on_line({});
  return status;
}

}  // namespace spectui
