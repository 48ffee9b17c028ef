#pragma once
// Appends to a result's wire log within bounds, so a target that floods its output cannot grow a
// report without limit: each text is shortened past `max_text`, and once the log holds
// `max_entries` entries or `max_bytes` bytes of text, one event says so and nothing more is kept.
#include "harness/results/result.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace mcpspec {

struct WireLimits {
  std::size_t max_entries = 5000;
  std::size_t max_text = 8192;
  std::size_t max_bytes = 1 << 20;
};

// Keeps the count of what it appended: use one writer per wire log.
class WireLogWriter {
 public:
  explicit WireLogWriter(WireLimits limits) : limits_(limits) {}
  void append(std::vector<WireEntry>& wire, double t_ms, WireEntry::Dir dir, const std::string& text);

 private:
  WireLimits limits_;
  std::size_t bytes_ = 0;
  bool truncated_ = false;
};

}  // namespace mcpspec
