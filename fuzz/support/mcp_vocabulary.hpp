#pragma once
// What the structure-aware mutator knows about MCP and mcpspec's scenario language: method names
// (read from the embedded harness/protocol/schemas/<version>/methods.json, so a new protocol
// version is picked up without touching the fuzzer), member names, boundary numbers, ids.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::fuzz {

struct Vocabulary {
  std::vector<std::string> methods;          // every method of every built-in version, deduplicated
  std::vector<std::string> member_names;     // envelope, params and result member names
  std::vector<std::string> matcher_operators;// "$regex", "$type", ... (scenario targets)
  std::vector<nlohmann::json> boundary_numbers;
  std::vector<nlohmann::json> odd_ids;       // ids that test how a peer keys its requests
  std::vector<std::string> odd_strings;      // escapes, placeholders, regex bombs, long text
};

// Built once; never throws (a missing resource leaves that list with only the fixed entries).
const Vocabulary& vocabulary();

}  // namespace mcpspec::fuzz
