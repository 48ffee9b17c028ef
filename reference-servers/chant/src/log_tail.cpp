#include "log_tail.hpp"

#include "mcpref/atomic_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string_view>
#include <vector>

namespace chant {

namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& p, int err) {
  throw mcpref::FileError(fmt::format("{} {}: {}", what, p.string(), std::strerror(err)));
}

struct Fd {
  int fd;
  ~Fd() { ::close(fd); }
};

}  // namespace

LogTail read_log_tail(const std::filesystem::path& file, std::size_t max_lines,
                      std::size_t max_bytes) {
  LogTail out;
  if (max_lines == 0) return out;
  int raw = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (raw < 0) {
    if (errno == ELOOP) {
      throw mcpref::FileError(fmt::format("refusing to read {}: it is a symbolic link", file.string()));
    }
    fail("cannot read", file, errno);
  }
  Fd fd{raw};
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0) fail("cannot stat", file, errno);
  if (!S_ISREG(st.st_mode)) throw mcpref::FileError(file.string() + " is not a regular file");

  // Read backwards in chunks until enough newlines are seen, the start, or the byte cap.
  const std::size_t size = static_cast<std::size_t>(st.st_size);
  std::string tail;
  std::size_t pos = size;
  std::size_t newlines = 0;
  const std::size_t chunk = 64 * 1024;
  while (pos > 0 && tail.size() < max_bytes + 1) {
    std::size_t take = std::min(chunk, pos);
    pos -= take;
    std::string buf(take, '\0');
    std::size_t got = 0;
    while (got < take) {
      ssize_t n = ::pread(fd.fd, buf.data() + got, take - got, static_cast<off_t>(pos + got));
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("cannot read", file, errno);
      }
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    buf.resize(got);
    newlines += static_cast<std::size_t>(std::count(buf.begin(), buf.end(), '\n'));
    tail.insert(0, buf);
    // max_lines lines need max_lines separators beyond a possible final newline.
    if (newlines > max_lines) break;
  }

  if (size == 0) return out;
  if (!tail.empty() && tail.back() == '\n') tail.pop_back();
  std::vector<std::string_view> pieces;
  std::size_t from = 0;
  for (;;) {
    std::size_t nl = tail.find('\n', from);
    pieces.emplace_back(std::string_view(tail).substr(from, nl == std::string::npos ? std::string::npos : nl - from));
    if (nl == std::string::npos) break;
    from = nl + 1;
  }
  // Unless we read from the start of the file, the first piece may be the end of a longer line.
  std::size_t complete_from = pos > 0 ? 1 : 0;
  std::size_t available = pieces.size() - std::min(complete_from, pieces.size());
  std::size_t take = std::min(max_lines, available);
  if (take < max_lines && pos > 0) out.truncated = true;  // stopped by the byte cap
  std::string text;
  for (std::size_t i = pieces.size() - take; i < pieces.size(); ++i) {
    if (!text.empty() || i != pieces.size() - take) text += '\n';
    text.append(pieces[i]);
  }
  if (text.size() > max_bytes) {
    std::size_t cut = text.find('\n', text.size() - max_bytes);
    text = cut == std::string::npos ? std::string() : text.substr(cut + 1);
    out.truncated = true;
    take = text.empty() ? 0 : static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  }
  out.lines = take;
  out.text = std::move(text);
  return out;
}

}  // namespace chant
