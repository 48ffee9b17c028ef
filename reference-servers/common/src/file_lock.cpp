#include "mcpref/file_lock.hpp"

#include "mcpref/atomic_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace mcpref {

FileLock FileLock::acquire(const std::filesystem::path& lock_file,
                           std::chrono::milliseconds timeout) {
  int fd = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw FileError(fmt::format("cannot open lock file {}: {}", lock_file.string(),
                                std::strerror(errno)));
  }
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return FileLock(fd);
    int err = errno;
    if (err == EINTR) continue;
    if (err != EWOULDBLOCK) {
      ::close(fd);
      throw FileError(fmt::format("cannot lock {}: {}", lock_file.string(), std::strerror(err)));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::close(fd);
      throw LockTimeout(fmt::format("timed out after {} ms waiting for the lock on {}",
                                    timeout.count(), lock_file.string()));
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() { release(); }

void FileLock::release() {
  if (fd_ >= 0) {
    // Closing the descriptor drops the flock; an explicit unlock first keeps it prompt even if
    // a forked child inherited the descriptor.
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
    fd_ = -1;
  }
}

}  // namespace mcpref
