#pragma once
// Where outgoing messages go. The reader thread and the streaming workers write concurrently,
// so every implementation must emit each line whole and never interleave two of them.
#include <mutex>
#include <string_view>

#include "json_types.hpp"

namespace clariad {

class LineSink {
 public:
  virtual ~LineSink() = default;
  // Writes text plus '\n' atomically with respect to other calls. False when the output is
  // gone (e.g. the client closed its end); later calls keep returning false.
  virtual bool write_line(std::string_view text) = 0;
};

// Serialises one message as a single line. Invalid UTF-8 cannot come from parsed input, but
// error details may quote raw bytes, so they are replaced instead of throwing mid-response.
bool send_message(LineSink& sink, const OJson& message);

class FdLineSink : public LineSink {
 public:
  explicit FdLineSink(int fd) : fd_(fd) {}
  bool write_line(std::string_view text) override;
  bool broken() const;

 private:
  mutable std::mutex mutex_;
  int fd_;
  bool broken_ = false;
};

}  // namespace clariad
