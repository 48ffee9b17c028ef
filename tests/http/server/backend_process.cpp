#include "backend_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace httpfront {

BackendProcess::BackendProcess(const std::string& command, bool everything_unsolicited)
    : all_unsolicited_(everything_unsolicited) {
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) {
    dead_ = true;
    return;
  }
  pid_ = ::fork();
  if (pid_ == 0) {
    ::setpgid(0, 0);
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  in_ = to_child[1];
  out_ = from_child[0];
  reader_ = std::thread([this] { read_loop(); });
}

BackendProcess::~BackendProcess() {
  if (in_ >= 0) ::close(in_);
  if (pid_ > 0) {
    // stdin EOF ends the test server; SIGKILL after a short grace period ends anything else.
    for (int i = 0; i < 50 && ::waitpid(pid_, nullptr, WNOHANG) == 0; ++i) ::usleep(10000);
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (reader_.joinable()) reader_.join();
  if (out_ >= 0) ::close(out_);
}

bool BackendProcess::write_line(const std::string& line) {
  std::lock_guard<std::mutex> lock(write_mu_);
  if (dead_ || in_ < 0) return false;
  std::string data = line + "\n";
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(in_, data.data() + off, data.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

void BackendProcess::read_loop() {
  std::string buf;
  char tmp[65536];
  for (;;) {
    ssize_t n = ::read(out_, tmp, sizeof tmp);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buf.append(tmp, static_cast<std::size_t>(n));
    for (auto nl = buf.find('\n'); nl != std::string::npos; nl = buf.find('\n')) {
      std::string line = buf.substr(0, nl);
      buf.erase(0, nl + 1);
      nlohmann::json msg;
      try {
        msg = nlohmann::json::parse(line);
      } catch (const nlohmann::json::exception&) {
        continue;  // the stdio server's own framing is tested elsewhere
      }
      std::lock_guard<std::mutex> lock(mu_);
      bool response = !all_unsolicited_ && msg.is_object() && msg.contains("id") && !msg.contains("method");
      if (response) responses_.emplace(msg["id"].dump(), msg);
      else if (msg.is_array() && !all_unsolicited_) {
        for (auto& m : msg) {
          if (m.is_object() && m.contains("id") && !m.contains("method")) responses_.emplace(m["id"].dump(), m);
          else unsolicited_.push_back(m);
        }
      } else {
        unsolicited_.push_back(msg);
      }
      cv_.notify_all();
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  dead_ = true;
  cv_.notify_all();
}

BackendProcess::Waited BackendProcess::await_response(const std::string& id_key, std::chrono::milliseconds max) {
  std::unique_lock<std::mutex> lock(mu_);
  const bool early = precancelled_.erase(id_key) > 0;
  if (early) max = std::min<std::chrono::milliseconds>(max, std::chrono::milliseconds(100));
  auto me = waiting_.insert(id_key);
  cv_.wait_for(lock, max, [&] { return responses_.count(id_key) || cancelled_.count(id_key) || dead_; });
  waiting_.erase(me);
  Waited w;
  // The mark is used up either way: a later request may use the same id again.
  w.cancelled = cancelled_.erase(id_key) > 0 || early;
  auto it = responses_.find(id_key);
  if (it != responses_.end()) {
    w.response = it->second;
    responses_.erase(it);
    if (answered_.size() >= 4096) answered_.clear();
    answered_.insert(id_key);
  }
  return w;
}

std::optional<nlohmann::json> BackendProcess::peek_response(const std::string& id_key,
                                                           std::chrono::milliseconds max, const Filter& mine) {
  std::unique_lock<std::mutex> lock(mu_);
  auto other = [&] {
    return std::any_of(unsolicited_.begin(), unsolicited_.end(), [&](const nlohmann::json& m) { return !mine || mine(m); });
  };
  cv_.wait_for(lock, max, [&] { return responses_.count(id_key) || other() || dead_; });
  auto it = responses_.find(id_key);
  if (it == responses_.end()) return std::nullopt;
  return it->second;
}

void BackendProcess::cancel(const std::string& id_key) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!waiting_.count(id_key)) {
    if (answered_.erase(id_key)) return;  // too late: already answered
    if (precancelled_.size() >= 4096) precancelled_.clear();
    precancelled_.insert(id_key);
    return;
  }
  cancelled_.insert(id_key);
  cv_.notify_all();
}

std::optional<nlohmann::json> BackendProcess::next_unsolicited(std::chrono::milliseconds max, const Filter& accept) {
  std::unique_lock<std::mutex> lock(mu_);
  auto found = [&] { return std::find_if(unsolicited_.begin(), unsolicited_.end(), [&](const nlohmann::json& m) { return !accept || accept(m); }); };
  cv_.wait_for(lock, max, [&] { return found() != unsolicited_.end() || dead_; });
  auto it = found();
  if (it == unsolicited_.end()) return std::nullopt;
  auto m = std::move(*it);
  unsolicited_.erase(it);
  return m;
}

}  // namespace httpfront
