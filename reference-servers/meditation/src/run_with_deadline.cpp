#include "run_with_deadline.hpp"

#include "mcpref/spawn.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace meditation {

namespace {
using Clock = std::chrono::steady_clock;
}

RunResult run_with_deadline(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                            const std::map<std::string, std::string>& extra_env, std::chrono::milliseconds deadline,
                            std::size_t max_output) {
  RunResult r;
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    r.output = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  mcpref::SpawnSpec spec;
  spec.argv = argv;
  spec.workdir = cwd.string();
  spec.out = spec.err = out[1];  // stdin stays /dev/null: nothing may wait for a person
  spec.extra_env = extra_env;
  pid_t pid = -1;
  try {
    pid = mcpref::spawn_in_new_group(spec);
  } catch (const mcpref::SpawnError& e) {
    ::close(out[0]);
    ::close(out[1]);
    r.output = e.what();
    return r;
  }
  ::close(out[1]);
  r.started = true;
  auto until = Clock::now() + deadline;
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    int n = ::poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) continue;  // the loop head sees the deadline
    ssize_t got = ::read(out[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // every writer closed: normally the program ended
    r.output.append(buf, static_cast<std::size_t>(got));
    if (r.output.size() > max_output) r.output.erase(0, r.output.size() - max_output);
  }
  ::close(out[0]);
  if (r.timed_out) ::kill(-pid, SIGKILL);
  // The output closed; the exit follows at once, unless a descendant holds the pipe (then the
  // deadline still applies).
  int status = 0;
  for (;;) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return r;
    if (!r.timed_out && Clock::now() >= until) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(-pid, SIGKILL);  // leftovers of its group
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace meditation
