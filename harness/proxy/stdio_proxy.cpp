#include "harness/proxy/stdio_proxy.hpp"

#include "harness/transport/child_process.hpp"
#include "harness/transport/line_framer.hpp"
#include "harness/util/clock.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <deque>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace mcpspec::proxy {

namespace {

constexpr int kPollMs = 50;          // how often a blocked forwarder looks at the stop flag
constexpr int kDrainMs = 1000;       // after the server exited: how long its pipes may stay open
constexpr int kTerminateGraceMs = 500;

// What the three forwarding threads share: the judge (one line at a time, in the order seen),
// the trace, and the flag that ends them.
class Session {
 public:
  Session(const StdioProxyOptions& o, TrafficJudge& judge, std::function<void(const TrafficFinding&)> on_finding)
      : options_(o), judge_(judge), on_finding_(std::move(on_finding)) {
    if (!o.record_path.empty()) trace_ = std::make_unique<TraceWriter>(o.record_path);
  }

  double now_ms() const { return ms_since(started_); }

  // A complete line, queued BEFORE its bytes are forwarded: a response can only be queued after
  // the request it answers, so judging in queue order never sees an answer before its question.
  void enqueue(Direction dir, transport::LineFramer::Frame f) {
    std::lock_guard<std::mutex> lock(queue_mu_);
    queue_.push_back({now_ms(), dir, std::move(f)});
  }

  // Judges what is queued, in order, after the bytes went out (checking never delays traffic).
  // Whichever thread holds the judge drains the queue; the others return at once.
  void judge_queued() {
    for (;;) {
      if (!judge_mu_.try_lock()) return;
      for (;;) {
        Queued q;
        {
          std::lock_guard<std::mutex> lock(queue_mu_);
          if (queue_.empty()) break;
          q = std::move(queue_.front());
          queue_.pop_front();
        }
        judge_one(q);
      }
      judge_mu_.unlock();
      std::lock_guard<std::mutex> lock(queue_mu_);
      if (queue_.empty()) return;  // else a line came in while we let go of the judge
    }
  }

  void event(const std::string& text) {
    std::lock_guard<std::mutex> lock(judge_mu_);
    try {
      judge_.event(text, now_ms());
    } catch (const std::exception& e) {
      if (checking_error_.empty()) checking_error_ = e.what();
    }
  }

  std::string checking_error() {
    std::lock_guard<std::mutex> lock(judge_mu_);
    return checking_error_;
  }

  const StdioProxyOptions& options() const { return options_; }
  std::atomic<bool> stop{false};
  std::atomic<bool> host_closed_stdin{false};
  std::atomic<bool> host_gone{false};  // the host stopped reading our stdout

 private:
  struct Queued {
    double t_ms = 0;
    Direction dir = Direction::ClientToServer;
    transport::LineFramer::Frame frame;
  };

  // Never throws: a failure of mcpspec's own checking ends the checking, the traffic goes on.
  void judge_one(const Queued& q) {
    try {
      if (trace_) trace_->write({q.t_ms, q.dir, q.frame.text, nullptr});
      if (!checking_error_.empty()) return;
      if (q.frame.oversize) {
        judge_.skip(q.dir, q.frame.length, q.t_ms);
        return;
      }
      for (const auto& finding : judge_.judge(q.dir, q.frame.text, q.t_ms)) on_finding_(finding);
    } catch (const std::exception& e) {
      if (checking_error_.empty()) checking_error_ = e.what();
    }
  }

  const StdioProxyOptions& options_;
  TrafficJudge& judge_;
  std::function<void(const TrafficFinding&)> on_finding_;
  std::unique_ptr<TraceWriter> trace_;
  std::mutex queue_mu_;
  std::deque<Queued> queue_;
  std::mutex judge_mu_;  // the judge, the trace and checking_error_
  std::string checking_error_;
  Clock::time_point started_ = Clock::now();
};


// Whether the writing end of `fd` (a pipe) is closed, even with data still unread in it.
bool hung_up(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & POLLHUP) != 0;
}

// Waits until `fd` is ready for `events` or the session stops; false when it stopped. While it
// waits, a hang-up of `host_input` (when given) marks the host's stdin closed (see write_all).
bool wait_ready(Session& s, int fd, short events, int host_input = -1) {
  while (!s.stop) {
    pollfd p{fd, events, 0};
    int r = ::poll(&p, 1, kPollMs);
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return true;  // let the read or write report the error
    if (host_input >= 0 && !s.host_closed_stdin && hung_up(host_input)) s.host_closed_stdin = true;
  }
  return false;
}

// Writes all of `data` to `fd` (blocking or not); false when the reader is gone or we stopped.
// `host_input` (the host's stdin, when writing to the server) is watched while the server does not
// read: a host that closed it is gone, and the server's time to exit starts then, not only once
// what is stuck here was delivered (it may never be: a server that stopped reading held the proxy
// for ever).
bool write_all(Session& s, int fd, const char* data, std::size_t size, int host_input = -1) {
  // The host's stdout is usually a blocking pipe: a write there would block inside write() for as
  // long as the host does not read, deaf to the stop flag (a host that never reads held the proxy
  // for ever). So it is written only once poll says it takes PIPE_BUF bytes, at most that much.
  const bool blocking = (::fcntl(fd, F_GETFL) & O_NONBLOCK) == 0;
  while (size > 0) {
    if (blocking && !wait_ready(s, fd, POLLOUT, host_input)) return false;
    ssize_t n = ::write(fd, data, blocking ? std::min<std::size_t>(size, PIPE_BUF) : size);
    if (n > 0) {
      data += n;
      size -= static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_ready(s, fd, POLLOUT, host_input)) return false;
      continue;
    }
    return false;
  }
  return true;
}

// Copies `from` to `to` until end of file (or the stop flag); each line is queued for the judge
// before its bytes go out and judged after.
// Returns true at end of file, false when the writing side failed or the session stopped.
bool forward(Session& s, int from, int to, Direction dir) {
  transport::LineFramer framer(s.options().max_judged_line);
  bool writable = true;
  char buf[65536];
  for (;;) {
    if (!wait_ready(s, from, POLLIN)) return false;
    ssize_t n = ::read(from, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n <= 0) {
      framer.finish();
      while (framer.has_frame()) s.enqueue(dir, framer.pop());
      s.judge_queued();
      return true;
    }
    framer.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    while (framer.has_frame()) s.enqueue(dir, framer.pop());
    if (writable && !write_all(s, to, buf, static_cast<std::size_t>(n), dir == Direction::ClientToServer ? from : -1)) {
      writable = false;
      if (dir == Direction::ServerToClient) s.host_gone = true;
      if (dir == Direction::ClientToServer) return false;  // the server no longer reads its stdin
    }
    s.judge_queued();
  }
}

int exit_code_of(const transport::ExitStatus& st) { return st.signal ? 128 + st.signal : st.code; }

}  // namespace

StdioProxyOutcome run_stdio_proxy(const StdioProxyOptions& o, TrafficJudge& judge,
                                  const std::function<void(const TrafficFinding&)>& on_finding) {
  Session s(o, judge, on_finding);
  transport::ChildProcess child;
  child.spawn({o.command, "", {}});
  s.event(fmt::format("started the server (pid {}): {}", child.pid(), o.command));

  std::thread c2s([&] {
    forward(s, o.input_fd, child.stdin_fd(), Direction::ClientToServer);
    // End of the host's stdin (or the server stopped reading): the server sees its stdin close,
    // which is how a stdio client asks a server to exit.
    child.close_stdin();
    s.host_closed_stdin = true;
  });
  std::atomic<bool> out_done{false}, err_done{false};
  std::thread s2c([&] {
    forward(s, child.stdout_fd(), o.output_fd, Direction::ServerToClient);
    out_done = true;
  });
  std::thread err([&] {
    forward(s, child.stderr_fd(), o.error_fd, Direction::Stderr);
    err_done = true;
  });

  // Every wait below is bounded: the server gets shutdown_ms after stdin closed, then SIGTERM and
  // SIGKILL to its group; its pipes get kDrainMs after it exited.
  std::optional<Deadline> shutdown;
  int signals_sent = 0;
  std::optional<transport::ExitStatus> status;
  while (!(status = child.poll_exit())) {
    if ((s.host_closed_stdin || s.host_gone) && !shutdown) shutdown = Deadline::after_ms(o.shutdown_ms);
    if (shutdown && shutdown->passed() && signals_sent == 2) break;  // not even SIGKILL ended it yet
    if (shutdown && shutdown->passed() && signals_sent < 2) {
      int sig = signals_sent == 0 ? SIGTERM : SIGKILL;
      s.event(fmt::format("the server did not exit within {} ms: sending {}", o.shutdown_ms,
                          sig == SIGTERM ? "SIGTERM" : "SIGKILL"));
      child.signal_group(sig);
      ++signals_sent;
      shutdown = Deadline::after_ms(kTerminateGraceMs);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto drain = Deadline::after_ms(kDrainMs);
  while (!(out_done && err_done) && !drain.passed()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  s.stop = true;
  c2s.join();
  s2c.join();
  err.join();
  child.terminate(kTerminateGraceMs);  // the rest of the group, reaped
  if (!status) status = child.poll_exit();
  // A process that outlives SIGKILL (stuck in the kernel) is reported as killed; we do not wait on.
  if (!status) status = transport::ExitStatus{-1, SIGKILL};
  s.judge_queued();
  s.event("server " + status->text());

  StdioProxyOutcome out;
  out.exit_code = exit_code_of(*status);
  out.exit_text = status->text();
  out.duration_ms = s.now_ms();
  out.checking_error = s.checking_error();
  return out;
}

}  // namespace mcpspec::proxy
