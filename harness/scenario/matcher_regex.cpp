#include "harness/scenario/matcher_regex.hpp"

#include <mutex>
#include <unordered_map>

namespace mcpspec::scenario::detail {

namespace {

// Patterns come from scenario files, so a handful are in use at once; the cap only guards
// against substituted patterns that differ on every run.
constexpr std::size_t kMaxCachedPatterns = 1024;

std::mutex cache_mutex;
std::unordered_map<std::string, std::shared_ptr<const std::regex>>& cache() {
  static std::unordered_map<std::string, std::shared_ptr<const std::regex>> entries;
  return entries;
}

}  // namespace

std::shared_ptr<const std::regex> compiled_regex(const std::string& pattern) {
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = cache().find(pattern);
    if (it != cache().end()) return it->second;
  }
  // Compiled outside the lock: a slow pattern must not block other threads. Two threads may
  // compile the same pattern once each; the first one stored wins.
  auto compiled = std::make_shared<const std::regex>(pattern, std::regex::ECMAScript);
  std::lock_guard<std::mutex> lock(cache_mutex);
  if (cache().size() >= kMaxCachedPatterns) cache().clear();
  return cache().emplace(pattern, std::move(compiled)).first->second;
}

}  // namespace mcpspec::scenario::detail
