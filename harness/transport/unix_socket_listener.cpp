#include "harness/transport/unix_socket_listener.hpp"

#include "harness/transport/bridge_pipe.hpp"
#include "harness/transport/transport.hpp"

#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace mcpspec::transport {

UnixSocketListener::UnixSocketListener() {
  // sun_path is only 108 bytes: keep the folder short (TMPDIR may be long, so /tmp is preferred).
  std::string tmpl = "/tmp/mcpspec-client-XXXXXX";
  if (!::mkdtemp(tmpl.data())) throw TransportError(std::string("cannot create a private folder in /tmp: ") + strerror(errno));
  dir_ = tmpl;
  ::chmod(dir_.c_str(), 0700);
  path_ = dir_ + "/server.sock";
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) {
    int e = errno;
    ::rmdir(dir_.c_str());
    throw TransportError(std::string("socket: ") + strerror(e));
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 8) != 0) {
    int e = errno;
    ::close(fd_);
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
    throw TransportError("cannot listen on " + path_ + ": " + strerror(e));
  }
}

UnixSocketListener::~UnixSocketListener() {
  if (fd_ >= 0) ::close(fd_);
  ::unlink(path_.c_str());
  ::unlink(bridge_log_path(path_).c_str());
  ::rmdir(dir_.c_str());
}

std::optional<UnixSocketListener::Accepted> UnixSocketListener::accept_now() {
  for (;;) {
    int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (c < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;  // EAGAIN: nobody waiting; other errors: try again at the next poll
    }
    Accepted a;
    a.fd = c;
    struct ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) a.peer = cred.pid;
    return a;
  }
}

}  // namespace mcpspec::transport
