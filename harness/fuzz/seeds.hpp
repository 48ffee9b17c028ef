#pragma once
// Seed messages for the fuzzer: every message our scenario files send (`send`, `request`,
// `notify` steps, fixtures included) and the files of a --corpus folder.
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace mcpspec::fuzz {

class SeedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Messages from the scenario files under `paths`, ${} references resolved for `version`
// (steps that need captures from a live exchange are skipped). Broken scenario files are skipped
// too: `mcpspec validate` is the place to hear about them.
std::vector<nlohmann::json> scenario_seeds(const std::vector<std::string>& paths, const std::string& version);
// Messages from a folder: *.json files hold one message or an array of messages, *.jsonl files
// one message per line. Throws SeedError naming the file (and line) that is not JSON.
std::vector<nlohmann::json> corpus_seeds(const std::string& dir);

}  // namespace mcpspec::fuzz
