#include "harness/auth/request_log.hpp"

namespace mcpspec::auth {

long RequestLog::add(nlohmann::json entry) {
  std::lock_guard<std::mutex> lock(mu_);
  if (entries_.size() >= kMaxEntries) return -1;
  long seq = static_cast<long>(entries_.size());
  entry["seq"] = seq;
  entry["ms"] =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_).count();
  entries_.push_back(std::move(entry));
  return seq;
}

void RequestLog::amend(long seq, const nlohmann::json& extra) {
  std::lock_guard<std::mutex> lock(mu_);
  if (seq < 0 || static_cast<std::size_t>(seq) >= entries_.size()) return;
  for (const auto& [k, v] : extra.items()) entries_[static_cast<std::size_t>(seq)][k] = v;
}

nlohmann::json RequestLog::entries() const {
  std::lock_guard<std::mutex> lock(mu_);
  return nlohmann::json(entries_);
}

}  // namespace mcpspec::auth
