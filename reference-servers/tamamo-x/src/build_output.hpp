// The result of `build`: which servers answered (or why not) and the groups, written as JSON to
// .tamamo-x/groups.json (or printed), and read back by `mcp`.
#pragma once

#include "discovery.hpp"
#include "grouping.hpp"

#include <filesystem>

namespace tamamo {

inline constexpr const char* kGroupsFile = ".tamamo-x/groups.json";

struct BuildResult {
  std::vector<ServerDiscovery> servers;
  std::vector<Group> groups;
};

mcpref::Json build_result_to_json(const BuildResult& result);
// Reads the groups back (servers' details are informative only). Errors name file and pointer.
std::vector<Group> groups_from_json(const mcpref::Json& document, const std::string& where);
std::vector<Group> load_groups(const std::filesystem::path& file);

}  // namespace tamamo
