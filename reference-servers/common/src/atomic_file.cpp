#include "mcpref/atomic_file.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mcpref {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& path, int err) {
  throw FileError(fmt::format("{} {}: {}", what, path.string(), std::strerror(err)));
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release_and_close() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

fs::path parent_of(const fs::path& p) {
  fs::path parent = p.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

fs::path temp_path_for(const fs::path& target) {
  static std::atomic<unsigned> counter{0};
  return parent_of(target) / fmt::format(".{}.tmp-{}-{}", target.filename().string(),
                                         static_cast<long>(::getpid()), counter.fetch_add(1));
}

// Writes and fsyncs the temporary file; returns its path. Cleans up after itself on failure.
fs::path write_temp(const fs::path& target, std::string_view data, mode_t mode) {
  fs::path temp = temp_path_for(target);
  int raw = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (raw < 0) fail("cannot create temporary file", temp, errno);
  Fd fd(raw);
  auto abandon = [&](const std::string& what, int err) {
    ::unlink(temp.c_str());
    fail(what, temp, err);
  };
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd.get(), data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon("cannot write", errno);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd.get()) != 0) abandon("cannot fsync", errno);
  if (fd.release_and_close() != 0) abandon("cannot close", errno);
  return temp;
}

void run_hook(const BeforeCommitHook& hook, const fs::path& temp) {
  if (!hook) return;
  try {
    hook(temp);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

}  // namespace

void fsync_directory(const fs::path& dir) {
  int raw = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (raw < 0) fail("cannot open directory", dir, errno);
  Fd fd(raw);
  if (::fsync(fd.get()) != 0 && errno != EINVAL) fail("cannot fsync directory", dir, errno);
}

void write_file_atomic(const fs::path& target, std::string_view data,
                       const BeforeCommitHook& before_commit) {
  mode_t mode = 0644;
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) mode = st.st_mode & 07777;
  fs::path temp = write_temp(target, data, mode);
  if (::stat(target.c_str(), &st) == 0) ::chmod(temp.c_str(), st.st_mode & 07777);
  run_hook(before_commit, temp);
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    fail("cannot replace", target, err);
  }
  fsync_directory(parent_of(target));
}

bool create_file_atomic(const fs::path& target, std::string_view data,
                        const BeforeCommitHook& before_commit) {
  struct stat st {};
  if (::lstat(target.c_str(), &st) == 0) return false;
  fs::path temp = write_temp(target, data, 0644);
  run_hook(before_commit, temp);
  // link() fails with EEXIST instead of replacing, which rename() cannot promise.
  if (::link(temp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    if (err == EEXIST) return false;
    fail("cannot create", target, err);
  }
  ::unlink(temp.c_str());
  fsync_directory(parent_of(target));
  return true;
}

void move_file_durable(const fs::path& from, const fs::path& to) {
  auto exists_error = [&] {
    return FileError(
        fmt::format("cannot move {} to {}: destination exists", from.string(), to.string()));
  };
  // renameat2(RENAME_NOREPLACE) moves in one step without ever replacing; file systems that
  // lack it get link()+unlink(), where a crash in between leaves both names (never neither).
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) != 0) {
    int err = errno;
    if (err == EEXIST) throw exists_error();
    if (err != EINVAL && err != ENOSYS) fail(fmt::format("cannot move {} to", from.string()), to, err);
    if (::link(from.c_str(), to.c_str()) != 0) {
      err = errno;
      if (err == EEXIST) throw exists_error();
      fail(fmt::format("cannot move {} to", from.string()), to, err);
    }
    if (::unlink(from.c_str()) != 0) fail("cannot remove", from, errno);
  }
  fsync_directory(parent_of(to));
  fsync_directory(parent_of(from));
}

std::string read_file_limited(const fs::path& path, std::size_t max_bytes) {
  int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (raw < 0) {
    if (errno == ELOOP) throw FileError(fmt::format("refusing to read {}: it is a symbolic link",
                                                    path.string()));
    fail("cannot read", path, errno);
  }
  Fd fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) fail("cannot stat", path, errno);
  if (!S_ISREG(st.st_mode)) throw FileError(fmt::format("{} is not a regular file", path.string()));
  if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    throw FileError(fmt::format("{} is too large ({} bytes, limit {})", path.string(),
                                static_cast<long long>(st.st_size), max_bytes));
  }
  std::string out;
  char buf[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot read", path, errno);
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > max_bytes) {
      throw FileError(fmt::format("{} is too large (over {} bytes)", path.string(), max_bytes));
    }
  }
  return out;
}

bool is_temp_file_name(std::string_view name) {
  return name.size() > 1 && name.front() == '.' && name.find(".tmp-") != std::string_view::npos;
}

}  // namespace mcpref
