#include "harness/results/wire_log.hpp"

#include <fmt/format.h>

namespace mcpspec {

void WireLogWriter::append(std::vector<WireEntry>& wire, double t_ms, WireEntry::Dir dir, const std::string& text) {
  if (truncated_) return;
  std::string t = text.size() > limits_.max_text
                      ? text.substr(0, limits_.max_text) + fmt::format(" [... {} bytes in all]", text.size())
                      : text;
  if (wire.size() >= limits_.max_entries || bytes_ + t.size() > limits_.max_bytes) {
    truncated_ = true;
    wire.push_back({t_ms, WireEntry::Dir::Event,
                     fmt::format("wire log truncated: over {} entries or {} bytes", limits_.max_entries,
                                 limits_.max_bytes)});
    return;
  }
  bytes_ += t.size();
  wire.push_back({t_ms, dir, std::move(t)});
}

}  // namespace mcpspec
