#include "mcpref/line_reader.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <unistd.h>

namespace mcpref {

namespace {
constexpr std::size_t kChunk = 64 * 1024;

void strip_cr(std::string& line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
}
}  // namespace

LineReader::LineReader(int fd, std::size_t max_line_bytes)
    : fd_(fd), max_line_bytes_(max_line_bytes == 0 ? 1 : max_line_bytes) {}

LineReader::LineReader(int fd, std::size_t max_line_bytes, int cancel_fd)
    : LineReader(fd, max_line_bytes) {
  cancel_fd_ = cancel_fd;
}

bool LineReader::wait_readable() {
  if (cancel_fd_ < 0) return true;
  for (;;) {
    pollfd fds[2] = {{fd_, POLLIN, 0}, {cancel_fd_, POLLIN, 0}};
    int n = ::poll(fds, 2, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      error_ = std::string("poll failed: ") + std::strerror(errno);
      return false;
    }
    if (fds[1].revents != 0) {
      error_ = "cancelled";
      return false;
    }
    if (fds[0].revents != 0) return true;  // data, EOF (POLLHUP) or an error read() will report
  }
}

bool LineReader::fill() {
  if (eof_) return false;
  // Compact so the buffer never holds more than one (capped) line plus one chunk.
  if (pos_ > 0) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  char chunk[kChunk];
  for (;;) {
    if (!wait_readable()) {
      eof_ = true;
      return false;
    }
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    if (errno == EINTR) continue;
    error_ = std::string("read failed: ") + std::strerror(errno);
    eof_ = true;
    return false;
  }
}

LineReader::Result LineReader::next() {
  Result r;
  std::size_t scanned = 0;  // bytes after pos_ already known to contain no newline
  for (;;) {
    std::size_t nl = buffer_.find('\n', pos_ + scanned);
    if (nl != std::string::npos) {
      std::size_t len = nl - pos_;
      if (len > max_line_bytes_) {
        r.status = Status::TooLong;
        r.discarded = len;
      } else {
        r.status = Status::Line;
        r.line.assign(buffer_, pos_, len);
        strip_cr(r.line);
      }
      pos_ = nl + 1;
      return r;
    }
    scanned = buffer_.size() - pos_;
    if (scanned > max_line_bytes_) {
      // Over the cap with no newline yet: drop what we hold and keep skipping until one
      // arrives, so memory stays bounded whatever the peer sends.
      std::size_t dropped = scanned;
      buffer_.clear();
      pos_ = 0;
      for (;;) {
        if (!fill()) {
          r.status = Status::TooLong;
          r.discarded = dropped;
          if (!error_.empty()) r.error = error_;
          return r;
        }
        std::size_t cut = buffer_.find('\n');
        if (cut != std::string::npos) {
          dropped += cut;
          pos_ = cut + 1;
          r.status = Status::TooLong;
          r.discarded = dropped;
          return r;
        }
        dropped += buffer_.size();
        buffer_.clear();
      }
    }
    if (!fill()) {
      if (!error_.empty()) {
        r.status = Status::Error;
        r.error = error_;
        return r;
      }
      if (buffer_.size() > pos_) {
        r.status = Status::Line;
        r.line.assign(buffer_, pos_, std::string::npos);
        strip_cr(r.line);
        pos_ = buffer_.size();
        return r;
      }
      r.status = Status::Eof;
      return r;
    }
    // fill() compacted the buffer, shifting pos_ and the scanned bytes together.
  }
}

}  // namespace mcpref
