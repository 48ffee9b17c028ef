#pragma once
// A Unix socket the harness listens on, inside a private temporary folder (mode 0700, so no other
// user can connect or read the bridge log). Accepting never blocks; the folder and everything in it
// is removed on destruction.
#include <sys/types.h>

#include <optional>
#include <string>

namespace mcpspec::transport {

class UnixSocketListener {
 public:
  // Creates the folder and listens. Throws TransportError with the reason.
  UnixSocketListener();
  ~UnixSocketListener();
  UnixSocketListener(const UnixSocketListener&) = delete;
  UnixSocketListener& operator=(const UnixSocketListener&) = delete;

  const std::string& path() const { return path_; }
  const std::string& dir() const { return dir_; }
  int fd() const { return fd_; }

  struct Accepted {
    int fd = -1;      // non-blocking, close-on-exec
    pid_t peer = -1;  // the connecting process (SO_PEERCRED), -1 when unknown
  };
  // One pending connection, if any (never waits).
  std::optional<Accepted> accept_now();

 private:
  std::string dir_, path_;
  int fd_ = -1;
};

}  // namespace mcpspec::transport
