#pragma once
// What a monitor reports: which monitor (the name a scenario can switch off with "monitors"), the
// requirement ids broken (most specific first) and one readable sentence. The conversation adds
// the level (from the catalog) and the message itself; the live fuzzer turns it into an anomaly.
#include <string>
#include <vector>

namespace mcpspec::monitor {

struct Finding {
  std::string monitor;
  std::vector<std::string> requirements;
  std::string message;
};

using Findings = std::vector<Finding>;

}  // namespace mcpspec::monitor
