// Grouping discovered tools into sub-agents, deterministically and with a stated reason for every
// tool. In order, a tool goes to:
//   1. the first rule of the rules file it matches (tool name, name prefix, description keyword,
//      server);
//   2. else a group of the tools sharing its name prefix (the part before the first separator),
//      when at least two remaining tools share it;
//   3. else a group of tools whose input schemas are similar (Jaccard similarity of property
//      names at least the threshold, compared to the group's first tool), when at least two;
//   4. else the group of its server.
// Every tool lands in exactly one group; names end in _agent and are unique; descriptions start
// with "Specialized agent" and list the tools.
#pragma once

#include "discovery.hpp"
#include "grouping_rules.hpp"

#include <string>
#include <vector>

namespace tamamo {

struct GroupedTool {
  DiscoveredTool tool;
  std::string reason;
};

struct Group {
  std::string name;
  std::string description;
  std::vector<GroupedTool> tools;
};

std::vector<Group> group_tools(const std::vector<DiscoveredTool>& tools, const Rules& rules, double similarity);

// How a tool is named to users of a group: its name, or server/name when two servers of the
// group offer a tool of that name.
std::string tool_label(const Group& group, const GroupedTool& tool);

// Jaccard similarity of the property names of two input schemas (0 when either has none).
double schema_similarity(const mcpref::Json& a, const mcpref::Json& b);

}  // namespace tamamo
