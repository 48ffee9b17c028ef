// Runs the chant binary as a child process: stdin from a string, stdout/stderr captured,
// a deadline so a hung child fails the test instead of hanging it.
#pragma once

#include "test_support.hpp"

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace chant_test {

struct RunResult {
  int exit_code = -1;  // -1: killed (by signal or deadline)
  bool timed_out = false;
  std::string out;
  std::string err;
};

class ChildProcess {
 public:
  // Starts `chant args...` in `cwd` with stdin from `input`.
  ChildProcess(const std::vector<std::string>& args, const fs::path& cwd, const std::string& input)
      : scratch_() {
    in_ = scratch_.path() / "stdin";
    out_ = scratch_.path() / "stdout";
    err_ = scratch_.path() / "stderr";
    write_text(in_, input);
    pid_ = ::fork();
    if (pid_ == 0) {
      int i = ::open(in_.c_str(), O_RDONLY);
      int o = ::open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int e = ::open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (i < 0 || o < 0 || e < 0 || ::chdir(cwd.c_str()) != 0) ::_exit(127);
      ::dup2(i, 0);
      ::dup2(o, 1);
      ::dup2(e, 2);
      std::vector<char*> argv;
      std::string binary = CHANT_BINARY;
      argv.push_back(binary.data());
      std::vector<std::string> copy = args;
      for (auto& a : copy) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(binary.c_str(), argv.data());
      ::_exit(127);
    }
  }
  ~ChildProcess() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }

  RunResult wait(std::chrono::milliseconds deadline = std::chrono::seconds(30)) {
    RunResult r;
    auto until = std::chrono::steady_clock::now() + deadline;
    int status = 0;
    for (;;) {
      pid_t done = ::waitpid(pid_, &status, WNOHANG);
      if (done == pid_) break;
      if (std::chrono::steady_clock::now() > until) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        r.timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    reaped_ = true;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out_);
    r.err = slurp(err_);
    return r;
  }

  void kill_now() { ::kill(pid_, SIGKILL); }

 private:
  TempDir scratch_;
  fs::path in_, out_, err_;
  pid_t pid_ = -1;
  bool reaped_ = false;
};

inline RunResult run_chant(const std::vector<std::string>& args, const fs::path& cwd,
                           const std::string& input = "") {
  ChildProcess child(args, cwd, input);
  return child.wait();
}

// Splits captured stdout into parsed JSON lines.
inline std::vector<Json> json_lines(const std::string& out) {
  std::vector<Json> lines;
  std::size_t pos = 0;
  while (pos < out.size()) {
    std::size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) nl = out.size();
    if (nl > pos) lines.push_back(Json::parse(out.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  return lines;
}

}  // namespace chant_test
