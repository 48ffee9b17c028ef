// Newline framing of the client's byte stream (stdin), with a bound on line length so that a
// client sending an endless line cannot make the server grow without limit.
#pragma once

#include <cstddef>
#include <string>

namespace testserver {

class LineReader {
 public:
  enum class Status { line, oversized, eof, read_error };
  struct Event {
    Status status;
    std::string line;         // for Status::line, without the trailing '\n'
    std::size_t dropped = 0;  // for Status::oversized: how many bytes were thrown away
  };

  LineReader(int fd, std::size_t max_line_bytes) : fd_(fd), max_(max_line_bytes) {}

  // Blocks until a whole line, an oversized line, end of input or a read error.
  Event next();

 private:
  bool fill();  // false at EOF or error (error_ set)

  int fd_;
  std::size_t max_;
  std::string buf_;
  std::size_t start_ = 0;   // first unconsumed byte in buf_
  std::size_t scanned_ = 0; // bytes after start_ already known to hold no '\n'
  bool eof_ = false;
  bool error_ = false;
};

}  // namespace testserver
