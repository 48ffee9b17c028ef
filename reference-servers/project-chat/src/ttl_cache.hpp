// A small cache whose entries expire after a fixed time to live; emptied whole on demand
// (project_chat empties it after a sync, since the notes may have changed).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace project_chat {

template <typename Value>
class TtlCache {
 public:
  using Clock = std::chrono::steady_clock;
  // The clock is injectable so tests need not sleep.
  explicit TtlCache(std::chrono::milliseconds ttl, std::function<Clock::time_point()> now = Clock::now)
      : ttl_(ttl), now_(std::move(now)) {}

  // The value stored under `key`, unless it is older than the TTL (then it is dropped).
  std::optional<Value> get(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    if (now_() - it->second.stored >= ttl_) {
      entries_.erase(it);
      return std::nullopt;
    }
    return it->second.value;
  }

  void put(const std::string& key, Value value) {
    if (ttl_.count() <= 0) return;  // a TTL of 0 turns caching off
    std::lock_guard lock(mutex_);
    entries_[key] = Entry{std::move(value), now_()};
  }

  void clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
  }

  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }

 private:
  struct Entry {
    Value value;
    Clock::time_point stored;
  };
  std::chrono::milliseconds ttl_;
  std::function<Clock::time_point()> now_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace project_chat
