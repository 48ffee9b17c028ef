// SIGINT, SIGTERM and SIGHUP as a request to stop in order (the server is shut down first),
// instead of dying with the server still attached.
#pragma once

#include <chrono>

namespace project_chat {

// Catches the three signals (mcpref::StopSignals) and notes the first on a thread of its own.
// Call once, first thing in main().
void install_stop_signals();

// True once a stop signal came.
bool stop_requested();

// Sleeps for `duration`, or less when a stop signal comes. True when it was cut short.
bool sleep_unless_stopped(std::chrono::milliseconds duration);

// The number of the signal that asked us to stop (0: none).
int stop_signal_number();

}  // namespace project_chat
