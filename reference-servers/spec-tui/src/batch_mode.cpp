#include "batch_mode.hpp"

#include "mcpref/stop_signals.hpp"

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
  // SIGINT / SIGTERM cancel the running command (as the TUI's cancel key does); the session
  // then ends in order instead of leaving the agent working.
  mcpref::StopSignals signals;
  std::thread watcher([&] {
    if (signals.wait() != 0) runner.cancel();
  });
  int status = kExitOk;
  RunOutcome connected = runner.connect();
  if (!connected.ok) {
    status = connected.kind == CommandFailed::Kind::Connection ? kExitNoAgent : kExitCommandFailed;
  } else {
    RunOutcome out = runner.run(command, input);
    if (!out.ok) status = out.kind == CommandFailed::Kind::InvalidInput ? kExitUsage : kExitCommandFailed;
  }
  runner.finish();
  signals.cancel();
  watcher.join();
  runner.log().on_line({});
  return status;
}

}  // namespace spectui
