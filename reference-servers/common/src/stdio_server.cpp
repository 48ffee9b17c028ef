#include "mcpref/stdio_server.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace mcpref {

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

int serve_stdio(Dispatcher& dispatcher, const StdioOptions& options) {
  std::signal(SIGPIPE, SIG_IGN);
  LineReader reader(options.in_fd, options.max_line_bytes);
  for (;;) {
    LineReader::Result in = reader.next();
    std::optional<Json> reply;
    switch (in.status) {
      case LineReader::Status::Eof: return 0;
      case LineReader::Status::Error: return 1;
      case LineReader::Status::TooLong:
        reply = rpc::make_error(
            nullptr, rpc::kParseError,
            fmt::format("Parse error: message line of {} bytes exceeds the {}-byte limit and was "
                        "discarded",
                        in.discarded, reader.max_line_bytes()));
        break;
      case LineReader::Status::Line: reply = dispatcher.handle_line(in.line); break;
    }
    if (reply && !write_all(options.out_fd, to_line(*reply) + "\n")) return 1;
  }
}

}  // namespace mcpref
