#include "run_with_deadline.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace meditation {

namespace {
using Clock = std::chrono::steady_clock;
}

RunResult run_with_deadline(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                            const std::map<std::string, std::string>& extra_env, std::chrono::milliseconds deadline,
                            std::size_t max_output) {
  RunResult r;
  if (argv.empty()) {
    r.output = "no program given";
    return r;
  }
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    r.output = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    if (!extra_env.count(kv.substr(0, kv.find('=')))) env.push_back(std::move(kv));
  }
  for (const auto& [k, v] : extra_env) env.push_back(k + "=" + v);
  std::vector<char*> envp, args;
  for (auto& s : env) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, out[1], 2);
  posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&defaults, sig);
  sigemptyset(&empty);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, args[0], &fa, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  if (rc != 0) {
    ::close(out[0]);
    r.output = "cannot start " + argv[0] + ": " + std::strerror(rc);
    return r;
  }
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
