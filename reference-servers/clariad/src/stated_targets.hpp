#pragma once
// Numbers a requirements text commits to ("respond within 200 ms", "99.9% uptime", "10,000
// concurrent users"). The architecture uses them as quality-attribute targets instead of
// assumed defaults, and lists the attributes for which no number was given.
#include <optional>
#include <string>
#include <string_view>

namespace clariad {

struct StatedTargets {
  std::optional<std::string> response_time;  // e.g. "200 ms"
  std::optional<std::string> availability;   // e.g. "99.9%"
  std::optional<std::string> users;          // e.g. "10,000 concurrent users"
  double user_count = 0;                     // the number behind `users`, for sizing decisions
};

StatedTargets find_stated_targets(std::string_view text);

}  // namespace clariad
