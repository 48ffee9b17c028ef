#include "git_pull.hpp"

#include "run_with_deadline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace meditation {

namespace {

std::string last_lines(const std::string& text, int count) {
  std::size_t end = text.find_last_not_of("\r\n \t");
  if (end == std::string::npos) return "";
  std::size_t start = end + 1;
  for (int i = 0; i < count && start > 0; ++i) {
    std::size_t nl = text.rfind('\n', start - 1);
    start = nl == std::string::npos ? 0 : nl;
    if (nl == std::string::npos) break;
  }
  std::string out = text.substr(start, end + 1 - start);
  while (!out.empty() && out.front() == '\n') out.erase(0, 1);
  return out;
}

const std::map<std::string, std::string> kGitEnv = {{"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}};

}  // namespace

PullOutcome git_pull(const std::filesystem::path& folder, std::chrono::milliseconds deadline) {
  PullOutcome o;
  // Only a folder that is the top of its own work tree is synced with git: a notes folder
  // inside some unrelated repository must not pull that repository.
  RunResult top = run_with_deadline({"git", "rev-parse", "--show-toplevel"}, folder, kGitEnv, deadline);
  if (!top.started || top.exit_code != 0) return o;
  std::string top_dir = top.output.substr(0, top.output.find('\n'));
  std::error_code ec;
  if (!std::filesystem::equivalent(top_dir, folder, ec)) return o;
  o.is_repository = true;
  // A git still running in this work tree (the pull of a meditation-mcp that was killed: git runs
  // in its own process group and outlives it) holds .git/index.lock while it checks files out.
  // Pulling beside it fails, and scanning beside it misses the files not yet written: wait for it
  // within the deadline. A lock that stays is named rather than removed (it may be live).
  auto lock = folder / ".git" / "index.lock";
  auto give_up = std::chrono::steady_clock::now() + deadline;
  while (std::filesystem::exists(lock, ec) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (std::filesystem::exists(lock, ec)) {
    o.summary = fmt::format("git pull --ff-only was not tried: {} stayed for {} ms (another git is running, or "
                            "one was killed: remove the file if none runs)", lock.string(), deadline.count());
    return o;
  }
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
  RunResult pull = run_with_deadline({"git", "pull", "--ff-only"}, folder, kGitEnv,
                                     std::max(left, std::chrono::milliseconds(1)));
  if (pull.timed_out) {
    o.summary = fmt::format("git pull --ff-only did not finish within {} ms and was stopped", deadline.count());
  } else if (!pull.started) {
    o.summary = "git pull --ff-only could not run: " + pull.output;
  } else if (pull.exit_code != 0) {
    o.summary = fmt::format("git pull --ff-only failed ({}): {}",
                            pull.signal ? fmt::format("signal {}", pull.signal) : fmt::format("exit {}", pull.exit_code),
                            last_lines(pull.output, 2));
  } else {
    o.ok = true;
    o.summary = "git pull --ff-only: " + last_lines(pull.output, 1);
  }
  return o;
}

}  // namespace meditation
