#include "line_reader.hpp"

#include <unistd.h>

#include <cerrno>

namespace clariad {

namespace {
constexpr std::size_t kChunk = 64 * 1024;
}

LineReader::LineReader(int fd, std::size_t max_line_bytes) : fd_(fd), max_(max_line_bytes) {}

bool LineReader::fill() {
  if (eof_) return false;
  char chunk[kChunk];
  for (;;) {
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failed_ = true;
    eof_ = true;
    return false;
  }
}

std::optional<InputLine> LineReader::next() {
  bool discarding = false;
  std::size_t dropped = 0;
  for (;;) {
    const std::size_t nl = buffer_.find('\n', scan_from_);
    if (nl != std::string::npos) {
      InputLine line;
      if (discarding || nl > max_) {
        line.too_long = true;
        line.length = dropped + nl;
      } else {
        line.text.assign(buffer_, 0, nl);
        if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
        line.length = nl;
      }
      buffer_.erase(0, nl + 1);
      scan_from_ = 0;
      return line;
    }
    scan_from_ = buffer_.size();
    if (buffer_.size() > max_) {
      // Keep nothing of an overlong line: only its length matters for the error.
      discarding = true;
      dropped += buffer_.size();
      buffer_.clear();
      scan_from_ = 0;
    }
    if (!fill()) {
      if (discarding) return InputLine{{}, true, dropped + buffer_.size()};
      if (buffer_.empty()) return std::nullopt;
      InputLine line;
      line.text = std::move(buffer_);
      if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
      line.length = line.text.size();
      buffer_.clear();
      scan_from_ = 0;
      return line;
    }
  }
}

}  // namespace clariad
