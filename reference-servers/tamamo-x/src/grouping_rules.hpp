// The grouping rules file (JSON, named by grouping.rulesFile or --rules): groups the user wants,
// each with the tools, name prefixes, description keywords or servers that put a tool into it.
#pragma once

#include "mcpref/json.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace tamamo {

struct GroupRule {
  std::string name;         // ends in _agent
  std::string description;  // starts with "Specialized agent"
  std::vector<std::string> tools;     // "tool" or "server/tool"
  std::vector<std::string> prefixes;  // tool-name prefixes
  std::vector<std::string> keywords;  // whole words of the tool's description (case-insensitive)
  std::vector<std::string> servers;   // every tool of these servers
};

struct Rules {
  std::vector<GroupRule> groups;  // first matching rule wins
};

Rules parse_rules(const mcpref::Json& document, const std::string& where);
Rules load_rules(const std::filesystem::path& file);

}  // namespace tamamo
