#pragma once
// Rules a peer broke that only a transport sees (headers, content types), collected on the
// transport's own threads and taken by the conversation, which reports each like a monitor's
// finding (Transport::take_violations).
#include <nlohmann/json.hpp>

#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mcpspec::transport {

class Violations {
 public:
  void add(const std::string& monitor, const std::vector<std::string>& requirements, const std::string& message) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!list_.is_array()) list_ = nlohmann::json::array();
    list_.push_back({{"monitor", monitor}, {"requirements", requirements}, {"message", message}});
  }
  // Everything added since the last call, as objects {"monitor", "requirements", "message"}; null
  // when there is nothing, so the conversation's call after every event allocates nothing.
  nlohmann::json take() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(list_, nullptr);
  }

 private:
  std::mutex mu_;
  nlohmann::json list_;
};

}  // namespace mcpspec::transport
