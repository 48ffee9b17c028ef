// Newline-delimited reading from a file descriptor with a hard cap on line length.
#pragma once

#include <cstddef>
#include <string>

namespace mcpref {

// 4 MiB: far above any legitimate MCP message a reference server expects, small enough that a
// peer streaming bytes without a newline cannot make the process grow without bound.
inline constexpr std::size_t kDefaultMaxLineBytes = 4u * 1024u * 1024u;

class LineReader {
 public:
  enum class Status {
    Line,     // `line` holds one complete line (terminator and a trailing CR removed)
    TooLong,  // a line exceeded the cap; `discarded` bytes were dropped up to its newline
    Eof,      // end of input, nothing left
    Error,    // read() failed; `error` describes it
  };

  struct Result {
    Status status = Status::Eof;
    std::string line;
    std::size_t discarded = 0;
    std::string error;
  };

  LineReader(int fd, std::size_t max_line_bytes = kDefaultMaxLineBytes);
  // As above, and every wait for input also watches `cancel_fd`: once it is readable (say the
  // read end of a pipe whose write end was written to or closed), next() returns Error with
  // "cancelled". A reader thread can then be stopped without closing `fd` under it.
  LineReader(int fd, std::size_t max_line_bytes, int cancel_fd);

  // Blocks until a full line, an oversize line has been skipped, EOF or an error.
  // A final line without a newline is still delivered before Eof.
  Result next();

  std::size_t max_line_bytes() const { return max_line_bytes_; }

 private:
  bool fill();  // false on EOF; throws nothing, sets error_ on failure
  bool wait_readable();  // false when cancelled (or poll failed); sets error_

  int fd_;
  int cancel_fd_ = -1;
  std::size_t max_line_bytes_;
  std::string buffer_;
  std::size_t pos_ = 0;  // start of unconsumed data in buffer_
  bool eof_ = false;
  std::string error_;
};

}  // namespace mcpref
