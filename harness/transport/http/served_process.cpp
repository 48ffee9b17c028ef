#include "harness/transport/http/served_process.hpp"

#include "harness/transport/http/http_connection.hpp"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace mcpspec::transport::http {

int free_loopback_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw TransportError("cannot create a socket to find a free port");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    ::close(fd);
    throw TransportError("cannot find a free loopback port");
  }
  ::close(fd);
  return ntohs(a.sin_port);
}

ServedProcess::ServedProcess(SpawnOptions spawn, std::string port_env, EventQueue& events)
    : spawn_(std::move(spawn)), port_env_(std::move(port_env)), events_(events) {}

ServedProcess::~ServedProcess() { stop(300); }

std::string ServedProcess::describe() const {
  return "spawned pid " + std::to_string(child_.pid()) + " with " + port_env_ + "=" + std::to_string(port_) + ": " +
         spawn_.command;
}

void ServedProcess::start(Deadline listening_deadline) {
  port_ = free_loopback_port();
  SpawnOptions o = spawn_;
  o.env[port_env_] = std::to_string(port_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    child_.spawn(o);
    // The server reads nothing on stdin over HTTP; some exit on stdin EOF, so keep it open.
  }
  watcher_ = std::thread([this] { watch(); });
  for (;;) {
    HttpConnection probe;
    try {
      probe.connect("127.0.0.1", port_, Deadline::after_ms(200).earliest(listening_deadline));
      return;
    } catch (const TransportError&) {
    }
    if (auto st = exit_status())
      throw TransportError("the server exited (" + st->text() + ") before listening on port " + std::to_string(port_));
    if (listening_deadline.passed())
      throw TransportError("the server did not listen on 127.0.0.1:" + std::to_string(port_) + " (" + port_env_ +
                           ") before the start-up deadline");
    ::usleep(20000);
  }
}

void ServedProcess::watch() {
  std::string partial[2];
  int fds[2];
  {
    std::lock_guard<std::mutex> lock(mu_);
    fds[0] = ::dup(child_.stdout_fd());
    fds[1] = ::dup(child_.stderr_fd());
  }
  char buf[8192];
  while (!stopping_) {
    struct pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    ::poll(p, 2, 50);
    for (int i = 0; i < 2; ++i) {
      if (fds[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(fds[i], buf, sizeof buf);
      if (n > 0) {
        partial[i].append(buf, static_cast<std::size_t>(n));
        for (auto nl = partial[i].find('\n'); nl != std::string::npos; nl = partial[i].find('\n')) {
          events_.push(Event{Event::Type::Stderr, (i == 0 ? "[stdout] " : "") + partial[i].substr(0, nl), {}});
          partial[i].erase(0, nl + 1);
        }
        if (partial[i].size() > 65536) {
          events_.push(Event{Event::Type::Stderr, partial[i].substr(0, 65536) + " [... line truncated]", {}});
          partial[i].clear();
        }
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        ::close(fds[i]);
        fds[i] = -1;
      }
    }
    std::optional<ExitStatus> st;
    {
      std::lock_guard<std::mutex> lock(mu_);
      st = child_.poll_exit();
    }
    if (st && !exit_reported_ && fds[0] < 0 && fds[1] < 0) {
      exit_reported_ = true;
      Event e{Event::Type::Exited, st->text(), st};
      events_.push(std::move(e));
      break;
    }
    if (st && !exit_reported_) {
      // A grandchild may hold the pipes open: the leader's exit is what counts.
      exit_reported_ = true;
      events_.push(Event{Event::Type::Exited, st->text(), st});
    }
  }
  for (int fd : fds)
    if (fd >= 0) ::close(fd);
}

void ServedProcess::signal(int sig) {
  std::lock_guard<std::mutex> lock(mu_);
  child_.signal_group(sig);
}

std::optional<ExitStatus> ServedProcess::exit_status() {
  std::lock_guard<std::mutex> lock(mu_);
  return child_.poll_exit();
}

void ServedProcess::stop(int grace_ms) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (child_.pid() > 0) child_.terminate(grace_ms);
  }
  stopping_ = true;
  if (watcher_.joinable()) watcher_.join();
}

}  // namespace mcpspec::transport::http
