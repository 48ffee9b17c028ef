// An exclusive advisory lock (flock) on a lock file, held for the lifetime of the object.
// It serialises read-modify-write cycles between processes and between threads that each
// acquire their own FileLock (flock locks belong to the open file description).
#pragma once

#include <chrono>
#include <filesystem>
#include <stdexcept>

namespace mcpref {

class LockTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class FileLock {
 public:
  // Creates the lock file if needed and waits up to `timeout` for the lock, so a stuck peer
  // produces an error instead of a hang. Throws LockTimeout, or FileError if the file cannot
  // be opened.
  static FileLock acquire(const std::filesystem::path& lock_file,
                          std::chrono::milliseconds timeout);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  bool held() const { return fd_ >= 0; }
  void release();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace mcpref
