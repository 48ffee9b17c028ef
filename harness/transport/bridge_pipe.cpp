#include "harness/transport/bridge_pipe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <chrono>
#include <string>
#include <thread>

namespace mcpspec::transport {

std::string bridge_log_path(const std::string& socket_path) { return socket_path + ".log"; }

namespace {

// Written from the signal handler too, so it is a plain int and the line is built without allocation.
int g_log_fd = -1;
char g_signal_prefix[64] = "bridge: ended by signal ";  // filled with the pid before handlers exist

// Events go to the log the harness reads; errors also to stderr, where the client may show them.
void log_line(const std::string& text, bool error = false) {
  std::string line = "bridge[" + std::to_string(::getpid()) + "]: " + text + "\n";
  if (g_log_fd >= 0) [[maybe_unused]] auto n = ::write(g_log_fd, line.data(), line.size());
  if (error || g_log_fd < 0) [[maybe_unused]] auto m = ::write(2, line.data(), line.size());
}

extern "C" void on_signal(int sig) {
  // async-signal-safe: fixed text, write(2), _exit.
  char msg[80];
  std::size_t len = strlen(g_signal_prefix);
  std::memcpy(msg, g_signal_prefix, len);
  if (sig >= 10) msg[len++] = static_cast<char>('0' + sig / 10);
  msg[len++] = static_cast<char>('0' + sig % 10);
  msg[len++] = '\n';
  if (g_log_fd >= 0) [[maybe_unused]] auto n = ::write(g_log_fd, msg, len);
  _exit(128 + sig);
}

int fail(const std::string& message) {
  log_line("error: " + message, true);
  return 1;
}

// Writes everything or reports why not (EPIPE: the reader is gone).
bool write_all(int fd, const char* data, std::size_t size, std::string& error) {
  std::size_t off = 0;
  while (off < size) {
    ssize_t n = ::write(fd, data + off, size - off);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      struct pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, 1000);
      continue;
    }
    error = strerror(errno);
    return false;
  }
  return true;
}

int connect_with_retries(const BridgeOptions& o, std::string& error) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (o.socket_path.size() >= sizeof addr.sun_path) {
    error = "socket path is too long (" + std::to_string(o.socket_path.size()) + " bytes): " + o.socket_path;
    return -1;
  }
  std::memcpy(addr.sun_path, o.socket_path.c_str(), o.socket_path.size() + 1);
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.connect_timeout_ms);
  for (;;) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      error = std::string("socket: ") + strerror(errno);
      return -1;
    }
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return fd;
    int e = errno;
    ::close(fd);
    // Only "not there yet" is worth retrying; anything else will not get better.
    bool transient = e == ENOENT || e == ECONNREFUSED || e == EAGAIN || e == EINTR;
    if (!transient || std::chrono::steady_clock::now() >= until) {
      error = "cannot connect to " + o.socket_path + ": " + strerror(e) +
              (transient ? " (gave up after " + std::to_string(o.connect_timeout_ms) + " ms)" : "");
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

int run_bridge(const BridgeOptions& o) {
  ::signal(SIGPIPE, SIG_IGN);
  g_log_fd = ::open(bridge_log_path(o.socket_path).c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  std::string prefix = "bridge[" + std::to_string(::getpid()) + "]: ended by signal ";
  std::memcpy(g_signal_prefix, prefix.c_str(), prefix.size() + 1);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) ::signal(sig, on_signal);
  std::string error;
  int sock = connect_with_retries(o, error);
  if (sock < 0) return fail(error);
  log_line("connected");
  bool stdin_open = true;
  char buf[65536];
  for (;;) {
    struct pollfd fds[2] = {{sock, POLLIN, 0}, {0, POLLIN, 0}};
    int n = ::poll(fds, stdin_open ? 2 : 1, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(std::string("poll: ") + strerror(errno));
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t r = ::read(sock, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        // The harness ended the server side: like a server that exits, close stdout and go.
        log_line(r == 0 ? "the harness closed the connection; exit 0" : std::string("socket read: ") + strerror(errno));
        ::close(1);
        return r == 0 ? 0 : 1;
      }
      if (!write_all(1, buf, static_cast<std::size_t>(r), error))
        return fail("the client stopped reading the server's stdout (" + error + ")");
    }
    if (stdin_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t r = ::read(0, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        // The client closed the server's stdin: the orderly stdio shutdown. Tell the harness by
        // half-closing the socket and exit as a well-behaved server would.
        log_line(r == 0 ? "the client closed stdin; exit 0" : std::string("stdin read: ") + strerror(errno));
        ::shutdown(sock, SHUT_WR);
        return r == 0 ? 0 : 1;
      }
      if (!write_all(sock, buf, static_cast<std::size_t>(r), error))
        return fail("the harness connection broke (" + error + ")");
    }
  }
}

}  // namespace mcpspec::transport
