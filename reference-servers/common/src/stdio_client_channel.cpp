#include "mcpref/stdio_client_channel.hpp"

#include "mcpref/jsonrpc.hpp"
#include "mcpref/spawn.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcpref {

namespace {

using Clock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// The last line of a stderr tail, for a one-line error message.
std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return {};
  std::size_t start = text.find_last_of('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("the server exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* name = ::sigabbrev_np(WTERMSIG(status));
    return fmt::format("the server was killed by signal {} (SIG{})", WTERMSIG(status), name ? name : "?");
  }
  return "the server stopped";
}

}  // namespace

StdioClientChannel::StdioClientChannel(StdioClientOptions options) : options_(std::move(options)) {}

StdioClientChannel::~StdioClientChannel() { close(std::chrono::milliseconds(500)); }

void StdioClientChannel::open(std::chrono::milliseconds) {
  {
    std::lock_guard lock(mutex_);
    if (pid_ > 0) throw ChannelClosed("this channel was already opened once; make a new one to reconnect");
  }
  if (options_.argv.empty() && options_.command.empty())
    throw ChannelClosed("no server command was given");
  std::signal(SIGPIPE, SIG_IGN);

  int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1};
  auto fail = [&](const std::string& what) {
    for (int* p : {pin, pout, perr, wake_}) close_fd(p[0]), close_fd(p[1]);
    throw ChannelClosed(what);
  };
  if (::pipe2(pin, O_CLOEXEC) != 0 || ::pipe2(pout, O_CLOEXEC) != 0 || ::pipe2(perr, O_CLOEXEC) != 0 ||
      ::pipe2(wake_, O_CLOEXEC) != 0)
    fail(std::string("cannot create pipes for the server: ") + std::strerror(errno));

  SpawnSpec spec;
  spec.argv = options_.argv.empty() ? std::vector<std::string>{"/bin/sh", "-c", options_.command} : options_.argv;
  spec.workdir = options_.workdir;
  spec.in = pin[0];
  spec.out = pout[1];
  spec.err = perr[1];
  pid_t pid = -1;
  try {
    pid = spawn_in_new_group(spec);
  } catch (const SpawnError& e) {
    std::string shown = options_.command;
    for (const auto& a : options_.argv) shown += (shown.empty() ? "" : " ") + a;
    fail(fmt::format("cannot start the server `{}`: {}", shown, std::strerror(e.error_number())));
  }

  close_fd(pin[0]);
  close_fd(pout[1]);
  close_fd(perr[1]);
  in_fd_ = pin[1];
  out_fd_ = pout[0];
  err_fd_ = perr[0];
  // Writes wait with a deadline (poll), never in a blocking write() on a full pipe.
  ::fcntl(in_fd_, F_SETFL, ::fcntl(in_fd_, F_GETFL) | O_NONBLOCK);
  {
    std::lock_guard lock(mutex_);
    pid_ = pid;
    open_ = true;
  }
  stdout_thread_ = std::thread([this] { read_stdout(); });
  stderr_thread_ = std::thread([this] { read_stderr(); });
}

void StdioClientChannel::read_stdout() {
  LineReader reader(out_fd_, options_.max_line_bytes, wake_[0]);
  for (;;) {
    LineReader::Result r = reader.next();
    if (r.status == LineReader::Status::Line) {
      handle_line(r.line);
    } else if (r.status == LineReader::Status::TooLong) {
      ++bad_lines_;
    } else {
      if (r.status == LineReader::Status::Error && r.error == "cancelled") return;  // close() is at work
      break;
    }
  }
  // The server closed its output: usually it exited. Give it a moment to be reaped, so the
  // message can say how it ended.
  wait_exit(std::chrono::milliseconds(1000));
  mark_closed(describe_exit());
}

void StdioClientChannel::read_stderr() {
  char chunk[4096];
  for (;;) {
    pollfd fds[2] = {{err_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    ssize_t n = ::read(err_fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    std::lock_guard lock(mutex_);
    stderr_tail_.append(chunk, static_cast<std::size_t>(n));
    if (stderr_tail_.size() > options_.stderr_tail_bytes)
      stderr_tail_.erase(0, stderr_tail_.size() - options_.stderr_tail_bytes);
  }
}

void StdioClientChannel::handle_line(const std::string& line) {
  if (line.find_first_not_of(" \t") == std::string::npos) return;
  rpc::ParsedText parsed = rpc::parse_json_text(line);
  if (!parsed.ok || !parsed.value.is_object()) {
    ++bad_lines_;
    return;
  }
  const Json& m = parsed.value;
  auto method = m.find("method");
  auto id = m.find("id");
  Json params = m.contains("params") ? m["params"] : Json();
  if (method != m.end() && method->is_string()) {
    if (id != m.end()) {
      reply_to_request(*id, method->get<std::string>(), params);
      return;
    }
    deliver_notification(method->get<std::string>(), params);
    return;
  }
  if (id == m.end() || (!m.contains("result") && !m.contains("error"))) {
    ++bad_lines_;
    return;
  }
  std::lock_guard lock(mutex_);
  auto it = pending_.find(id->dump());
  if (it == pending_.end()) {
    ++late_responses_;
    return;
  }
  it->second->done = true;
  it->second->response = m;
  changed_.notify_all();
}

void StdioClientChannel::reply_to_request(const Json& id, const std::string& method, const Json& params) {
  Json reply = answer_request(id, method, params);
  try {
    write_line(reply, std::chrono::milliseconds(2000));
  } catch (const ChannelClosed&) {
    // The server is gone or not reading; the reader will notice its end.
  }
}

void StdioClientChannel::write_line(const Json& message, std::chrono::milliseconds timeout) {
  std::string line = to_line(message) + "\n";
  auto deadline = Clock::now() + timeout;
  std::lock_guard lock(write_mutex_);
  std::size_t done = 0;
  while (done < line.size()) {
    if (in_fd_ < 0) throw ChannelClosed("the connection to the server is closed");
    ssize_t n = ::write(in_fd_, line.data() + done, line.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) {
      // Usually the server has just exited: its exit status says more than EPIPE, and the
      // reader learns it within moments.
      int error = errno;
      std::unique_lock state(mutex_);
      changed_.wait_for(state, std::chrono::milliseconds(500), [&] { return !open_; });
      throw ChannelClosed(closed_reason_.empty() ? fmt::format("cannot write to the server: {}", std::strerror(error))
                                                 : closed_reason_);
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) throw ChannelClosed("the server stopped reading its input (write timed out)");
    pollfd p{in_fd_, POLLOUT, 0};
    ::poll(&p, 1, static_cast<int>(left));
  }
}

Json StdioClientChannel::request(const std::string& method, const Json& params, std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  auto pending = std::make_shared<Pending>();
  Json id;
  {
    std::lock_guard lock(mutex_);
    if (!open_) throw ChannelClosed(closed_reason_.empty() ? "the server is not started" : closed_reason_);
    id = next_id_++;
    pending_[id.dump()] = pending;
  }
  Json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = params;
  announce_sent(method, id);
  try {
    write_line(message, timeout);
  } catch (...) {
    std::lock_guard lock(mutex_);
    pending_.erase(id.dump());
    throw;
  }
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, deadline, [&] { return pending->done || !open_; });
  pending_.erase(id.dump());
  if (pending->done) return result_or_throw(pending->response);
  if (!open_) throw ChannelClosed(closed_reason_);
  throw RequestTimeout(fmt::format("no answer to {} (id {}) within {} ms", method, id.dump(), timeout.count()), id);
}

void StdioClientChannel::notify(const std::string& method, const Json& params) {
  {
    std::lock_guard lock(mutex_);
    if (!open_) throw ChannelClosed(closed_reason_.empty() ? "the server is not started" : closed_reason_);
  }
  Json message = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = params;
  write_line(message, std::chrono::milliseconds(2000));
}

bool StdioClientChannel::is_open() const {
  std::lock_guard lock(mutex_);
  return open_;
}

std::string StdioClientChannel::stderr_tail() const {
  std::lock_guard lock(mutex_);
  return stderr_tail_;
}

void StdioClientChannel::mark_closed(const std::string& reason) {
  std::lock_guard lock(mutex_);
  if (!open_) return;
  open_ = false;
  closed_reason_ = reason;
  changed_.notify_all();
}

bool StdioClientChannel::wait_exit(std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (wait_status_) return true;
      if (pid_ <= 0) return true;
      int status = 0;
      pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        wait_status_ = status;
        return true;
      }
      if (r < 0 && errno == ECHILD) return true;  // reaped elsewhere: nothing to wait for
    }
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string StdioClientChannel::describe_exit() {
  // stderr may still be arriving: a short wait lets its last line into the message.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::lock_guard lock(mutex_);
  std::string what = wait_status_ ? describe_status(*wait_status_) : "the server closed its output";
  std::string err = last_line(stderr_tail_);
  if (!err.empty()) what += " (stderr: " + err + ")";
  return what;
}

void StdioClientChannel::stop_threads() {
  if (wake_[1] >= 0) {
    char b = 1;
    while (::write(wake_[1], &b, 1) < 0 && errno == EINTR) {
    }
  }
  if (stdout_thread_.joinable()) stdout_thread_.join();
  if (stderr_thread_.joinable()) stderr_thread_.join();
}

void StdioClientChannel::close(std::chrono::milliseconds grace) {
  pid_t pid;
  {
    std::lock_guard lock(mutex_);
    pid = pid_;
  }
  if (pid <= 0) return;
  {
    std::lock_guard lock(write_mutex_);
    if (in_fd_ < 0 && !stdout_thread_.joinable()) return;  // closed before
    close_fd(in_fd_);  // the orderly end for a stdio server: end of input
  }
  if (!wait_exit(grace)) {
    ::kill(-pid, SIGTERM);
    if (!wait_exit(grace)) {
      ::kill(-pid, SIGKILL);
      wait_exit(std::chrono::milliseconds(2000));
    }
  }
  // Whatever the leader left behind in its group would keep our pipes open.
  ::kill(-pid, SIGKILL);
  wait_exit(std::chrono::milliseconds(0));
  mark_closed("the client closed the connection to the server");
  stop_threads();
  close_fd(out_fd_);
  close_fd(err_fd_);
  close_fd(wake_[0]);
  close_fd(wake_[1]);
}

}  // namespace mcpref
