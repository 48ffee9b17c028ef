// Runs a program (no shell) to completion or to its deadline, whichever comes first: output
// captured (bounded), stdin empty, its own process group killed when time runs out.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace meditation {

struct RunResult {
  bool started = false;    // false: could not be started (see `output`)
  bool timed_out = false;  // killed at the deadline
  int exit_code = -1;      // when it exited normally
  int signal = 0;          // when a signal ended it
  std::string output;      // stdout and stderr together, the last `max_output` bytes
};

RunResult run_with_deadline(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                            const std::map<std::string, std::string>& extra_env, std::chrono::milliseconds deadline,
                            std::size_t max_output = 16384);

}  // namespace meditation
