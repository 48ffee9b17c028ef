#include "line_sink.hpp"

#include <unistd.h>

#include <cerrno>
#include <string>

namespace clariad {

bool send_message(LineSink& sink, const OJson& message) {
  return sink.write_line(message.dump(-1, ' ', false, OJson::error_handler_t::replace));
}

bool FdLineSink::write_line(std::string_view text) {
  std::string line;
  line.reserve(text.size() + 1);
  line.append(text);
  line.push_back('\n');

  std::lock_guard lock(mutex_);
  if (broken_) return false;
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      broken_ = true;
      return false;
    }
  }
  return true;
}

}  // namespace clariad

namespace clariad {

bool FdLineSink::broken() const {
  std::lock_guard lock(mutex_);
  return broken_;
}

}  // namespace clariad
