// `git pull --ff-only` for a notes folder that is a git work tree, with a deadline.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

namespace meditation {

struct PullOutcome {
  bool is_repository = false;  // false: nothing was run
  bool ok = false;
  std::string summary;  // one or two lines for the tool result: git's last words or why it failed
};

// Git never asks for credentials here (GIT_TERMINAL_PROMPT=0, no stdin): a pull that would need
// them fails at once instead of waiting for a person.
PullOutcome git_pull(const std::filesystem::path& folder, std::chrono::milliseconds deadline);

}  // namespace meditation
