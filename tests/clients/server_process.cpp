#include "server_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace testclient {

ServerProcess::ServerProcess(const std::vector<std::string>& argv) : argv_(argv) {
  if (argv.empty()) throw std::runtime_error("no server command given");
  spawn();
}

void ServerProcess::restart(int grace_ms) {
  shut_down(grace_ms);
  partial_.clear();
  lines_.clear();
  reaped_ = false;
  spawn();
}

void ServerProcess::spawn() {
  int pin[2], pout[2];
  if (::pipe2(pin, O_CLOEXEC) != 0 || ::pipe2(pout, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + strerror(errno));
  std::vector<std::string> args = argv_;
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + strerror(errno));
  if (pid_ == 0) {
    ::dup2(pin[0], 0);
    ::dup2(pout[1], 1);
    ::execvp(cargv[0], cargv.data());
    _exit(127);
  }
  ::close(pin[0]);
  ::close(pout[1]);
  in_ = pin[1];
  out_ = pout[0];
  ::fcntl(out_, F_SETFL, ::fcntl(out_, F_GETFL) | O_NONBLOCK);
}

ServerProcess::~ServerProcess() { shut_down(200); }

bool ServerProcess::write_line(const std::string& line) {
  if (in_ < 0) return false;
  std::string data = line + "\n";
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(in_, data.data() + off, data.size() - off);
    if (n > 0) off += static_cast<std::size_t>(n);
    else if (n < 0 && errno == EINTR) continue;
    else return false;
  }
  return true;
}

void ServerProcess::fill(int timeout_ms) {
  if (out_ < 0) return;
  struct pollfd p{out_, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0) return;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(out_, buf, sizeof buf);
    if (n > 0) {
      partial_.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    ::close(out_);
    out_ = -1;
    break;
  }
  for (auto nl = partial_.find('\n'); nl != std::string::npos; nl = partial_.find('\n')) {
    lines_.push_back(partial_.substr(0, nl));
    partial_.erase(0, nl + 1);
  }
}

std::optional<std::string> ServerProcess::read_line(int timeout_ms) {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (lines_.empty() && out_ >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
    if (left <= 0) break;
    fill(static_cast<int>(left));
  }
  if (lines_.empty()) return std::nullopt;
  std::string l = std::move(lines_.front());
  lines_.pop_front();
  return l;
}

void ServerProcess::close_stdin() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

bool ServerProcess::wait_exit(int timeout_ms) {
  if (reaped_ || pid_ <= 0) return true;
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    int st;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      reaped_ = true;
      return true;
    }
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void ServerProcess::signal(int sig) {
  if (!reaped_ && pid_ > 0) ::kill(pid_, sig);
}

void ServerProcess::shut_down(int grace_ms) {
  close_stdin();
  if (!wait_exit(grace_ms)) {
    signal(SIGTERM);
    if (!wait_exit(grace_ms)) {
      signal(SIGKILL);
      wait_exit(2000);
    }
  }
  if (out_ >= 0) ::close(out_);
  out_ = -1;
}

}  // namespace testclient
