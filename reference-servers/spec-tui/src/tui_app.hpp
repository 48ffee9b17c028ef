// The ncurses front end: a command menu, an input field, the output panel, a progress bar fed
// by notifications/progress, a status line, and keys to run, cancel, retry and quit. All
// protocol work happens in WorkflowRunner on a worker thread; this file only draws and reads keys.
#pragma once

#include "workflow_runner.hpp"

namespace spectui {

// Runs until the user quits; returns the exit status (0, or 1 when the last command failed).
int run_tui(WorkflowRunner& runner);

}  // namespace spectui
