#include "reports/report_file.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mcpspec::reports {

namespace fs = std::filesystem;

namespace {

std::string parent_dir(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// Writes everything or reports errno; write(2) may write less than asked.
bool write_all(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void check_report_path(const std::string& path, const std::string& kind) {
  if (path.empty()) {
    throw std::invalid_argument(
        fmt::format("{} report needs a path: use {}:PATH ({}:- for standard output)", kind, kind, kind));
  }
  if (path == "-") return;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw std::invalid_argument(fmt::format("{} report path '{}' is a directory; give a file name", kind, path));
  }
  const std::string dir = parent_dir(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw std::invalid_argument(
        fmt::format("{} report path '{}': directory '{}' does not exist", kind, path, dir));
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    throw std::invalid_argument(
        fmt::format("{} report path '{}': directory '{}' is not writable", kind, path, dir));
  }
}

void write_report(const std::string& path, const std::string& kind, const std::string& content) {
  if (path == "-") {
    std::cout << content << std::flush;
    if (!std::cout) throw std::runtime_error(fmt::format("cannot write {} report to standard output", kind));
    return;
  }
  // Unique per process and per call: several reporters (or threads) may write at the same time.
  static std::atomic<unsigned> counter{0};
  const std::string tmp = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
  auto fail = [&](const char* what) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error(
        fmt::format("cannot write {} report '{}': {} ({})", kind, path, what, std::strerror(err)));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    throw std::runtime_error(fmt::format("cannot write {} report '{}': cannot create '{}' ({})", kind,
                                         path, tmp, std::strerror(err)));
  }
  if (!write_all(fd, content)) {
    const int err = errno;
    ::close(fd);
    errno = err;
    fail("write failed");
  }
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int err = errno;
    ::close(fd);
    errno = err;
    fail("fsync failed");
  }
  if (::close(fd) != 0) fail("close failed");
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("rename failed");
}

}  // namespace mcpspec::reports
