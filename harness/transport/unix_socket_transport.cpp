#include "harness/transport/unix_socket_transport.hpp"

#include "harness/transport/bridge_pipe.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace mcpspec::transport {

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

}  // namespace

std::string expand_client_command(const std::string& command, const std::vector<std::string>& server_argv) {
  if (command.find("{server}") == std::string::npos && command.find("{server_argv_json}") == std::string::npos)
    throw TransportError("the --client command has no {server} or {server_argv_json} placeholder, so the client "
                         "cannot be told how to start the server: " + command);
  std::string words;
  for (const auto& a : server_argv) words += (words.empty() ? "" : " ") + shell_quote(a);
  std::string out = command;
  replace_all(out, "{server_argv_json}", shell_quote(nlohmann::json(server_argv).dump()));
  replace_all(out, "{server}", words);
  return out;
}

UnixSocketClientTransport::UnixSocketClientTransport(UnixSocketClientOptions options)
    : options_(std::move(options)),
      conn_framer_(options_.max_message_bytes),
      out_framer_(64 * 1024),
      err_framer_(64 * 1024) {}

UnixSocketClientTransport::~UnixSocketClientTransport() { stop(); }

void UnixSocketClientTransport::start() {
  listener_ = std::make_unique<UnixSocketListener>();
  expanded_ = expand_client_command(options_.command, {options_.bridge_program, "bridge", listener_->path()});
  SpawnOptions so = options_.spawn;
  so.command = expanded_;
  child_.spawn(so);
}

std::string UnixSocketClientTransport::describe() const {
  std::string s = "spawned client pid " + std::to_string(child_.pid()) + ": " + expanded_;
  if (!options_.spawn.workdir.empty()) s += " (in " + options_.spawn.workdir + ")";
  return s;
}

void UnixSocketClientTransport::accept_pending() {
  if (!listener_ || conn_ >= 0) return;  // one server connection at a time; a new one waits in the backlog
  auto a = listener_->accept_now();
  if (!a) return;
  conn_ = a->fd;
  peer_ = a->peer;
  write_closed_ = false;
  conn_framer_ = LineFramer(options_.max_message_bytes);
  ++connections_;
}

void UnixSocketClientTransport::drop_connection(const std::string& why) {
  if (conn_ < 0) return;
  conn_framer_.finish();
  while (conn_framer_.has_frame()) {
    auto f = conn_framer_.pop();
    events_.push_back({f.oversize ? Event::Type::Oversize : Event::Type::Frame, f.text, std::nullopt});
  }
  ::close(conn_);
  conn_ = -1;
  events_.push_back({Event::Type::Closed, why, std::nullopt});
}

void UnixSocketClientTransport::read_connection() {
  char buf[65536];
  for (int rounds = 0; rounds < 64 && conn_ >= 0; ++rounds) {
    ssize_t n = ::read(conn_, buf, sizeof buf);
    if (n > 0) {
      conn_framer_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    // Give the bridge's own account (stdin closed, signal) a moment to reach its log first.
    ::usleep(20000);
    read_bridge_log();
    drop_connection(n == 0 ? "the server connection ended (the client closed the server's stdin or the server "
                             "process it started ended)"
                           : std::string("the server connection broke: ") + strerror(errno));
    return;
  }
  while (conn_framer_.has_frame()) {
    auto f = conn_framer_.pop();
    Event e;
    if (f.oversize) {
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

void UnixSocketClientTransport::read_child_stream(int fd, LineFramer& framer, const char* prefix, bool is_stdout) {
  if (framer.read_available(fd)) {
    if (is_stdout) child_.close_stdout();
    else child_.close_stderr();
  }
  while (framer.has_frame()) events_.push_back({Event::Type::Stderr, prefix + framer.pop().text, std::nullopt});
}

void UnixSocketClientTransport::read_bridge_log() {
  if (!listener_) return;
  int fd = ::open(bridge_log_path(listener_->path()).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[8192];
  ssize_t n;
  while ((n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(log_offset_))) > 0 && log_offset_ < (1u << 20)) {
    log_offset_ += static_cast<std::size_t>(n);
    log_partial_.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  for (auto nl = log_partial_.find('\n'); nl != std::string::npos; nl = log_partial_.find('\n')) {
    events_.push_back({Event::Type::Stderr, log_partial_.substr(0, nl), std::nullopt});
    log_partial_.erase(0, nl + 1);
  }
}

void UnixSocketClientTransport::pump(Deadline deadline) {
  accept_pending();
  struct pollfd fds[4];
  int n = 0;
  int lfd = listener_ && conn_ < 0 ? listener_->fd() : -1;
  for (int fd : {conn_, child_.stdout_fd(), child_.stderr_fd(), lfd})
    if (fd >= 0) fds[n++] = {fd, POLLIN, 0};
  // The bridge log is a plain file: it is re-read at least every 50 ms.
  int wait = deadline.remaining_ms(50);
  if (n == 0) ::usleep(static_cast<useconds_t>(std::min(wait, 10)) * 1000);
  else ::poll(fds, n, wait);
  read_bridge_log();
  accept_pending();
  for (int i = 0; i < n; ++i) {
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    if (fds[i].fd == conn_) read_connection();
    else if (fds[i].fd == child_.stdout_fd()) read_child_stream(fds[i].fd, out_framer_, "client stdout: ", true);
    else if (fds[i].fd == child_.stderr_fd()) read_child_stream(fds[i].fd, err_framer_, "", false);
  }
}

Event UnixSocketClientTransport::receive(Deadline deadline) {
  for (;;) {
    if (!events_.empty()) {
      Event e = std::move(events_.front());
      events_.pop_front();
      return e;
    }
    if (!exit_reported_ && child_.stdout_fd() < 0 && child_.stderr_fd() < 0) {
      // What the client's server side sent before the client exited comes first: a connection
      // still in the listener's backlog, or open with unread lines, is read to its end (under
      // load the exit used to be reported first, and the lines after it were never looked at).
      accept_pending();
      if (conn_ < 0)
        if (auto st = child_.poll_exit()) {
          exit_reported_ = true;
          return Event{Event::Type::Exited, st->text(), st};
        }
    }
    if (deadline.passed()) return Event{Event::Type::Timeout, "", std::nullopt};
    pump(deadline);
    // A client that exits while a grandchild keeps its stdout open still counts as exited.
    if (events_.empty() && !exit_reported_ && conn_ < 0)
      if (auto st = child_.poll_exit()) {
        exit_reported_ = true;
        events_.push_back({Event::Type::Exited, st->text(), st});
      }
  }
}

void UnixSocketClientTransport::write_all(const std::string& bytes, Deadline deadline) {
  while (conn_ < 0) {
    if (deadline.passed() || child_.poll_exit())
      throw TransportError(connections_ == 0 ? "the client has not started the server (no connection from the bridge)"
                                             : "the server connection is closed");
    pump(Deadline::after_ms(std::min(deadline.remaining_ms(), 20)));
  }
  if (write_closed_) throw TransportError("the server side of the connection was closed by the scenario");
  std::size_t off = 0;
  while (off < bytes.size()) {
    if (conn_ < 0) throw TransportError("the server connection ended while writing");
    ssize_t n = ::send(conn_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) throw TransportError(std::string("write to the client: ") + strerror(errno));
    if (deadline.passed())
      throw TransportError("the client did not read the server's stdout before the deadline (" + std::to_string(off) +
                           " of " + std::to_string(bytes.size()) + " bytes written)");
    pump(Deadline::after_ms(std::min(deadline.remaining_ms(), 20)));
  }
}

void UnixSocketClientTransport::send(const std::string& frame, Deadline deadline) { write_all(frame + "\n", deadline); }
void UnixSocketClientTransport::send_raw(const std::string& bytes, Deadline deadline) { write_all(bytes, deadline); }

void UnixSocketClientTransport::close_input() {
  if (conn_ < 0 || write_closed_) return;
  ::shutdown(conn_, SHUT_WR);  // the bridge closes the client's view of server stdout and exits 0
  write_closed_ = true;
}

void UnixSocketClientTransport::crash_server() {
  if (conn_ < 0) return;
  if (peer_ > 0) ::kill(peer_, SIGKILL);
  drop_connection("the harness killed the server process (bridge pid " + std::to_string(peer_) + ") with SIGKILL");
}

void UnixSocketClientTransport::signal(int sig) { child_.signal_group(sig); }

std::optional<ExitStatus> UnixSocketClientTransport::exit_status() { return child_.poll_exit(); }

void UnixSocketClientTransport::stop() {
  // The server side goes first: a client that ends when its server exits then ends on its own,
  // before the grace period and the signals.
  if (conn_ >= 0) {
    ::close(conn_);
    conn_ = -1;
  }
  child_.terminate(options_.stop_grace_ms);
  listener_.reset();
}

}  // namespace mcpspec::transport
