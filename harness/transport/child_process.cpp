#include "harness/transport/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <thread>

extern char** environ;

namespace mcpspec::transport {

std::string ExitStatus::text() const {
  if (signal != 0) {
    const char* name = sigabbrev_np(signal);
    return std::string("killed by SIG") + (name ? name : std::to_string(signal));
  }
  return "exit code " + std::to_string(code);
}

namespace {

// Process groups started and not yet killed, for the signal handler below: a fixed table of
// lock-free slots, as a handler may only make async-signal-safe calls.
constexpr int kGroupSlots = 1024;
std::atomic<pid_t> live_groups[kGroupSlots];
static_assert(std::atomic<pid_t>::is_always_lock_free);

void remember_group(pid_t pg) {
  for (auto& slot : live_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pg)) return;
  }
  // Table full (over a thousand live targets): that group is still killed by its owner.
}

void forget_group(pid_t pg) {
  for (auto& slot : live_groups) {
    pid_t expected = pg;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

extern "C" void kill_groups_and_die(int sig) {
  for (auto& slot : live_groups) {
    pid_t pg = slot.load();
    if (pg > 0) ::kill(-pg, SIGKILL);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void prepare_process_handling() {
  static std::once_flag once;
  std::call_once(once, [] {
    ::signal(SIGPIPE, SIG_IGN);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction sa {};
      sa.sa_handler = kill_groups_and_die;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

namespace {

void close_fd(int& fd) {
  if (fd >= 0) {
    ::close(fd);
    fd = -1;
  }
}

ExitStatus decode(int wstatus) {
  ExitStatus s;
  if (WIFEXITED(wstatus)) s.code = WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) s.signal = WTERMSIG(wstatus);
  return s;
}

}  // namespace

ChildProcess::~ChildProcess() { terminate(100); }

void ChildProcess::spawn(const SpawnOptions& o) {
  prepare_process_handling();
  int pin[2], pout[2], perr[2];
  if (::pipe2(pin, O_CLOEXEC) != 0) throw TransportError(std::string("pipe: ") + strerror(errno));
  if (::pipe2(pout, O_CLOEXEC) != 0) {
    ::close(pin[0]), ::close(pin[1]);
    throw TransportError(std::string("pipe: ") + strerror(errno));
  }
  if (::pipe2(perr, O_CLOEXEC) != 0) {
    ::close(pin[0]), ::close(pin[1]), ::close(pout[0]), ::close(pout[1]);
    throw TransportError(std::string("pipe: ") + strerror(errno));
  }
  // Everything the child needs is prepared before fork: after fork only async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string::npos && o.env.count(kv.substr(0, eq))) continue;
    env_strings.push_back(std::move(kv));
  }
  for (const auto& [k, v] : o.env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string sh = "/bin/sh", dash_c = "-c", cmd = o.command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  const char* wd = o.workdir.empty() ? nullptr : o.workdir.c_str();

  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    for (int fd : {pin[0], pin[1], pout[0], pout[1], perr[0], perr[1]}) ::close(fd);
    throw TransportError(std::string("fork: ") + strerror(e));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(pin[0], 0);
    ::dup2(pout[1], 1);
    ::dup2(perr[1], 2);
    // Restore default signal handling the harness changed.
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) ::signal(sig, SIG_DFL);
    if (wd && ::chdir(wd) != 0) _exit(126);
    ::execve(argv[0], argv, envp.data());
    _exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent: no race with the first signal we send
  pid_ = pid;
  remember_group(pid);
  ::close(pin[0]);
  ::close(pout[1]);
  ::close(perr[1]);
  in_ = pin[1];
  out_ = pout[0];
  err_ = perr[0];
  for (int fd : {in_, out_, err_}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void ChildProcess::close_stdin() { close_fd(in_); }
void ChildProcess::close_stdout() { close_fd(out_); }
void ChildProcess::close_stderr() { close_fd(err_); }

std::optional<ExitStatus> ChildProcess::poll_exit() {
  if (status_ || pid_ <= 0) return status_;
  int ws = 0;
  pid_t r = ::waitpid(pid_, &ws, WNOHANG);
  if (r == pid_) status_ = decode(ws);
  return status_;
}

void ChildProcess::signal_group(int sig) {
  if (pid_ <= 0) return;
  // The group outlives its leader when grandchildren remain: signal it even after the leader died.
  ::kill(-pid_, sig);
}

void ChildProcess::terminate(int grace_ms) {
  if (pid_ <= 0) return;
  close_stdin();
  auto wait_for = [&](int ms) {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!poll_exit() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return status_.has_value();
  };
  if (!wait_for(grace_ms)) {
    signal_group(SIGTERM);
    if (!wait_for(grace_ms)) {
      signal_group(SIGKILL);
      wait_for(2000);
    }
  }
  if (!group_killed_) {
    // Whatever is left of the group (daemonized grandchildren) is killed and, since we are a
    // subreaper, reaped here.
    ::kill(-pid_, SIGKILL);
    group_killed_ = true;
    forget_group(pid_);
    int ws;
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (std::chrono::steady_clock::now() < until) {
      pid_t r = ::waitpid(-pid_, &ws, WNOHANG);
      if (r > 0) continue;
      if (r < 0) break;  // ECHILD: none left in the group
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  close_fd(out_);
  close_fd(err_);
}

}  // namespace mcpspec::transport
