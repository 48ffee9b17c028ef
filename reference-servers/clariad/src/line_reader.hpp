#pragma once
// Newline-delimited input from a file descriptor with a hard cap on line length. An overlong
// line is skipped up to its newline and reported, so one bad message cannot exhaust memory
// or desynchronise the lines that follow it.
#include <cstddef>
#include <optional>
#include <string>

namespace clariad {

struct InputLine {
  std::string text;          // without the newline (and without a trailing '\r')
  bool too_long = false;     // text is empty then; length says how much was dropped
  std::size_t length = 0;    // bytes in the line as received (capped count for huge ones)
};

class LineReader {
 public:
  LineReader(int fd, std::size_t max_line_bytes);

  // Next line, or nullopt at end of input. A final line without '\n' is still returned.
  std::optional<InputLine> next();

  // True when input ended because read() failed (not a clean end of file).
  bool failed() const { return failed_; }

 private:
  bool fill();

  int fd_;
  std::size_t max_;
  std::string buffer_;
  std::size_t scan_from_ = 0;
  bool eof_ = false;
  bool failed_ = false;
};

}  // namespace clariad
