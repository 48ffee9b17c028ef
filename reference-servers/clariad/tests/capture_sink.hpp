#pragma once
// A LineSink that keeps every line in memory, for driving Server/OperationRunner in tests.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "json_types.hpp"
#include "line_sink.hpp"

namespace clariad::test {

class CaptureSink : public LineSink {
 public:
  bool write_line(std::string_view text) override;

  std::vector<std::string> lines() const;
  std::vector<Json> messages() const;  // every line parsed
  std::size_t size() const;
  void clear();

  // True when at least n lines arrived within the timeout.
  bool wait_for(std::size_t n, std::chrono::milliseconds timeout) const;

  // Closed sinks refuse writes, like stdout after the client went away.
  void close();

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  std::vector<std::string> lines_;
  bool closed_ = false;
};

// Builds a request line.
std::string request(const Json& id, const std::string& method, const Json& params = nullptr);

}  // namespace clariad::test
