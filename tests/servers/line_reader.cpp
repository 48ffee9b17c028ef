#include "line_reader.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace testserver {

bool LineReader::fill() {
  if (eof_ || error_) return false;
  // Compact only when the consumed prefix dominates, so long runs of short lines stay O(n).
  if (start_ > 0 && start_ * 2 >= buf_.size()) {
    buf_.erase(0, start_);
    start_ = 0;
  }
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buf_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    if (errno == EINTR) continue;
    error_ = true;
    return false;
  }
}

LineReader::Event LineReader::next() {
  bool discarding = false;
  std::size_t dropped = 0;
  for (;;) {
    const std::size_t avail = buf_.size() - start_;
    const char* base = buf_.data() + start_;
    const void* nl = scanned_ < avail ? std::memchr(base + scanned_, '\n', avail - scanned_) : nullptr;
    if (nl != nullptr) {
      const auto len = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
      start_ += len + 1;
      scanned_ = 0;
      if (discarding) return {Status::oversized, {}, dropped + len};
      if (len > max_) return {Status::oversized, {}, len};
      return {Status::line, std::string(base, len)};
    }
    scanned_ = avail;
    if (discarding || avail > max_) {
      // Too long already: forget what we have and skip to the next newline.
      discarding = true;
      dropped += avail;
      start_ = buf_.size();
      scanned_ = 0;
    }
    if (!fill()) {
      const std::size_t rest = buf_.size() - start_;
      if (discarding) {
        start_ = buf_.size();
        scanned_ = 0;
        return {Status::oversized, {}, dropped + rest};
      }
      if (rest > 0) {
        // A last line without its newline still counts as a message.
        std::string line(buf_.data() + start_, rest);
        start_ = buf_.size();
        scanned_ = 0;
        return {Status::line, std::move(line)};
      }
      return {error_ ? Status::read_error : Status::eof, {}};
    }
  }
}

}  // namespace testserver
