#include "harness/transport/line_framer.hpp"

#include <cerrno>

#include <unistd.h>

namespace mcpspec::transport {

namespace {
constexpr std::size_t kOversizePrefix = 256;  // how much of an oversize line is kept for the report
}

void LineFramer::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    auto nl = bytes.find('\n');
    std::string_view chunk = nl == std::string_view::npos ? bytes : bytes.substr(0, nl);
    if (discarding_) {
      discarded_ += chunk.size();
      // Top the kept prefix up to its full size, so the report shows the same bytes however the
      // line arrived (found by fuzz/targets/message_parser_fuzz.cpp: one read gave 256 bytes,
      // byte-by-byte reads gave max+1).
      if (partial_.size() < kOversizePrefix) partial_.append(chunk.substr(0, kOversizePrefix - partial_.size()));
    } else if (partial_.size() + chunk.size() > max_) {
      // Keep a short prefix for the report, then drop the rest of the line.
      discarding_ = true;
      discarded_ = partial_.size() + chunk.size();  // counted before the prefix is appended below
      partial_.append(chunk.substr(0, kOversizePrefix > partial_.size() ? kOversizePrefix - partial_.size() : 0));
      if (partial_.size() > kOversizePrefix) partial_.resize(kOversizePrefix);
    } else {
      partial_.append(chunk);
    }
    if (nl == std::string_view::npos) break;
    if (discarding_) {
      ready_.push_back(Frame{std::move(partial_), true, discarded_});
      discarding_ = false;
      discarded_ = 0;
    } else {
      std::size_t n = partial_.size();
      ready_.push_back(Frame{std::move(partial_), false, n});
    }
    partial_.clear();
    bytes.remove_prefix(nl + 1);
  }
}

void LineFramer::finish() {
  if (discarding_) {
    ready_.push_back(Frame{std::move(partial_), true, discarded_});
  } else if (!partial_.empty()) {
    std::size_t n = partial_.size();
    ready_.push_back(Frame{std::move(partial_), false, n});
  }
  partial_.clear();
  discarding_ = false;
  discarded_ = 0;
}

LineFramer::Frame LineFramer::pop() {
  Frame f = std::move(ready_.front());
  ready_.pop_front();
  return f;
}

bool LineFramer::read_available(int fd) {
  char buf[65536];
  for (int rounds = 0; rounds < 64; ++rounds) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      feed(std::string_view(buf, static_cast<std::size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return false;
    finish();  // end of file, or an error: the stream is over
    return true;
  }
  return false;
}

}  // namespace mcpspec::transport
