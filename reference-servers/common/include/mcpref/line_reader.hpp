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

  // Blocks until a full line, an oversize line has been skipped, EOF or an error.
  // A final line without a newline is still delivered before Eof.
  Result next();

  std::size_t max_line_bytes() const { return max_line_bytes_; }

 private:
  bool fill();  // false on EOF; throws nothing, sets error_ on failure

  int fd_;
  std::size_t max_line_bytes_;
  std::string buffer_;
  std::size_t pos_ = 0;  // start of unconsumed data in buffer_
  bool eof_ = false;
  std::string error_;
};

}  // namespace mcpref
