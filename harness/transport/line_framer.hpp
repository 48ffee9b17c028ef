#pragma once
// Splits a byte stream into newline-delimited frames with a hard size bound, so a target that
// writes a 1 GiB line costs the harness at most `max_bytes` of memory.
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>

namespace mcpspec::transport {

class LineFramer {
 public:
  struct Frame {
    std::string text;
    bool oversize = false;  // the line was longer than max_bytes; `text` holds its first bytes only
    std::size_t length = 0; // the full length of the line as received (so far, for oversize)
  };
  explicit LineFramer(std::size_t max_bytes) : max_(max_bytes) {}

  void feed(std::string_view bytes);
  // At EOF: a trailing partial line (no newline) becomes a frame of its own.
  void finish();
  // Feeds what the non-blocking `fd` holds now: at most 64 reads, so one busy stream cannot starve
  // another polled beside it. At end of file (or a read error) calls finish() and returns true.
  bool read_available(int fd);
  bool has_frame() const { return !ready_.empty(); }
  Frame pop();
  std::size_t buffered() const { return partial_.size(); }

 private:
  std::size_t max_;
  std::string partial_;
  bool discarding_ = false;     // inside an oversize line: drop bytes up to the next newline
  std::size_t discarded_ = 0;
  std::deque<Frame> ready_;
};

}  // namespace mcpspec::transport
