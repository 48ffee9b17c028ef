// --batch: one workflow command, no terminal UI, the same session and protocol behaviour.
// Output lines go to stdout as they happen (and to the log).
#pragma once

#include "workflow_runner.hpp"

#include <string>

namespace spectui {

// Exit statuses of spec-tui, batch and TUI alike.
inline constexpr int kExitOk = 0;
inline constexpr int kExitCommandFailed = 1;  // tool error, timeout, cancelled
inline constexpr int kExitUsage = 2;          // bad arguments or configuration
inline constexpr int kExitNoAgent = 3;        // could not connect

int run_batch(WorkflowRunner& runner, const WorkflowCommand& command, const std::string& input);

}  // namespace spectui
