#include "harness/transport/stdio_transport.hpp"

#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <cerrno>

namespace mcpspec::transport {

StdioTransport::StdioTransport(StdioOptions options)
    : options_(std::move(options)), out_framer_(options_.max_message_bytes), err_framer_(options_.max_stderr_line) {}

StdioTransport::~StdioTransport() { stop(); }

void StdioTransport::start() { child_.spawn(options_.spawn); }

std::string StdioTransport::describe() const {
  std::string s = "spawned pid " + std::to_string(child_.pid()) + ": " + options_.spawn.command;
  if (!options_.spawn.workdir.empty()) s += " (in " + options_.spawn.workdir + ")";
  return s;
}

void StdioTransport::send(const std::string& frame, Deadline deadline) { write_all(frame + "\n", deadline); }

void StdioTransport::send_raw(const std::string& bytes, Deadline deadline) { write_all(bytes, deadline); }

void StdioTransport::write_all(const std::string& bytes, Deadline deadline) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    int fd = child_.stdin_fd();
    if (fd < 0) throw TransportError("the target's stdin is already closed");
    ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) throw TransportError("the target closed its stdin (broken pipe)");
    if (n < 0 && errno != EAGAIN) throw TransportError(std::string("write to target: ") + strerror(errno));
    if (deadline.passed())
      throw TransportError("the target did not read its stdin before the deadline (" + std::to_string(off) + " of " +
                           std::to_string(bytes.size()) + " bytes written)");
    // The target may be blocked writing to us: keep draining its output while we wait to write.
    // One poll wakes on whichever comes first, room in its stdin or output from it; waiting for
    // output alone stalled every full pipe until the target next wrote (or 20 ms passed), which
    // made a pipelined fuzzer wait far more than it worked.
    struct pollfd fds[3];
    int nfds = 0;
    fds[nfds++] = {fd, POLLOUT, 0};
    int out = child_.stdout_fd(), err = child_.stderr_fd();
    if (out >= 0) fds[nfds++] = {out, POLLIN, 0};
    if (err >= 0) fds[nfds++] = {err, POLLIN, 0};
    if (::poll(fds, static_cast<nfds_t>(nfds), deadline.remaining_ms(20)) <= 0) continue;
    for (int i = 1; i < nfds; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      int rfd = fds[i].fd;
      if (rfd == out) drain_fd(rfd, out_framer_, true);
      else drain_fd(rfd, err_framer_, false);
    }
  }
}

void StdioTransport::drain_fd(int& fd, LineFramer& framer, bool is_stdout) {
  if (framer.read_available(fd)) {  // bounded per call, so stderr cannot starve stdout
    if (is_stdout) {
      child_.close_stdout();
      stdout_closed_ = true;
    } else {
      child_.close_stderr();
    }
    fd = -1;
  }
  while (framer.has_frame()) {
    auto f = framer.pop();
    Event e;
    if (!is_stdout) {
      e.type = Event::Type::Stderr;
      e.text = std::move(f.text);
      if (f.oversize) e.text += " [... stderr line of " + std::to_string(f.length) + " bytes truncated]";
    } else if (f.oversize) {
      e.type = Event::Type::Oversize;
      e.text = "message of at least " + std::to_string(f.length) + " bytes exceeds the limit of " +
               std::to_string(options_.max_message_bytes) + " bytes; it starts: " + f.text;
    } else {
      e.type = Event::Type::Frame;
      e.text = std::move(f.text);
    }
    events_.push_back(std::move(e));
  }
}

void StdioTransport::pump(Deadline deadline) {
  int out = child_.stdout_fd(), err = child_.stderr_fd();
  if (out < 0 && err < 0) return;
  struct pollfd fds[2];
  int n = 0;
  if (out >= 0) fds[n++] = {out, POLLIN, 0};
  if (err >= 0) fds[n++] = {err, POLLIN, 0};
  int r = ::poll(fds, n, deadline.remaining_ms(1000));
  if (r <= 0) return;
  for (int i = 0; i < n; ++i) {
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    if (fds[i].fd == out) {
      int fd = out;
      drain_fd(fd, out_framer_, true);
    } else {
      int fd = err;
      drain_fd(fd, err_framer_, false);
    }
  }
}

Event StdioTransport::receive(Deadline deadline) {
  for (;;) {
    if (!events_.empty()) {
      Event e = std::move(events_.front());
      events_.pop_front();
      return e;
    }
    if (stdout_closed_ && !closed_reported_) {
      closed_reported_ = true;
      return Event{Event::Type::Closed, "the target closed its stdout", std::nullopt};
    }
    if (stdout_closed_ && !exit_reported_) {
      if (auto st = child_.poll_exit()) {
        exit_reported_ = true;
        // stderr may still hold the target's last words; take them first.
        if (child_.stderr_fd() >= 0) {
          pump(Deadline::after_ms(50));
          if (!events_.empty()) {
            exit_reported_ = false;
            continue;
          }
        }
        return Event{Event::Type::Exited, st->text(), st};
      }
    }
    if (deadline.passed()) return Event{Event::Type::Timeout, "", std::nullopt};
    if (child_.stdout_fd() < 0 && child_.stderr_fd() < 0) {
      // Nothing left to read: wait for the exit in small steps.
      ::usleep(static_cast<useconds_t>(std::min(deadline.remaining_ms(), 10)) * 1000);
    } else {
      pump(Deadline::after_ms(std::min(deadline.remaining_ms(), stdout_closed_ ? 10 : 1000)));
    }
  }
}

void StdioTransport::close_input() { child_.close_stdin(); }

void StdioTransport::signal(int sig) { child_.signal_group(sig); }

std::optional<ExitStatus> StdioTransport::exit_status() { return child_.poll_exit(); }

void StdioTransport::stop() { child_.terminate(options_.stop_grace_ms); }

}  // namespace mcpspec::transport
