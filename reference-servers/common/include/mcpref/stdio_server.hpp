// Serves a Dispatcher over newline-delimited JSON on a pair of file descriptors (stdio).
#pragma once

#include "mcpref/dispatcher.hpp"
#include "mcpref/line_reader.hpp"

#include <cstddef>
#include <string>

namespace mcpref {

struct StdioOptions {
  int in_fd = 0;
  int out_fd = 1;
  std::size_t max_line_bytes = kDefaultMaxLineBytes;
};

// Runs until end of input. Returns 0 on EOF, 1 if reading or writing failed (for example the
// peer closed our stdout). SIGPIPE is ignored so a vanished peer is an error, not a crash.
int serve_stdio(Dispatcher& dispatcher, const StdioOptions& options = {});

// Writes all of `data`, retrying short writes and EINTR. False on failure.
bool write_all(int fd, const std::string& data);

}  // namespace mcpref
