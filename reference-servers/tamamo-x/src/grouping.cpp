#include "grouping.hpp"

#include "mutants.hpp"
#include "words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>

namespace tamamo {

using mcpref::Json;

namespace {

std::set<std::string> property_names(const Json& schema) {
  std::set<std::string> names;
  if (schema.is_object() && schema.contains("properties") && schema["properties"].is_object()) {
    for (const auto& [key, value] : schema["properties"].items()) names.insert(key);
  }
  return names;
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

// Why `rule` takes `tool`, or nullopt.
std::optional<std::string> rule_match(const GroupRule& rule, const DiscoveredTool& tool) {
  for (const std::string& t : rule.tools) {
    if (t == tool.name || t == tool.server + "/" + tool.name) return fmt::format("rule {}: names the tool", rule.name);
  }
  for (const std::string& p : rule.prefixes) {
    if (tool.name.starts_with(p)) return fmt::format("rule {}: name prefix '{}'", rule.name, p);
  }
  std::vector<std::string> description = words_of(tool.description);
  std::set<std::string> have(description.begin(), description.end());
  for (const std::string& k : rule.keywords) {
    std::vector<std::string> need = words_of(k);
    if (!need.empty() && std::all_of(need.begin(), need.end(), [&](const std::string& w) { return have.count(w); })) {
      return fmt::format("rule {}: description keyword '{}'", rule.name, k);
    }
  }
  for (const std::string& s : rule.servers) {
    if (s == tool.server) return fmt::format("rule {}: server '{}'", rule.name, s);
  }
  return std::nullopt;
}

class GroupSet {
 public:
  // The group called `name`, made if needed; an automatic group whose name is taken gets a
  // numbered name instead, so rule groups never receive tools their rule did not match.
  Group& fresh(const std::string& base, const std::string& topic) {
    std::string name = base + "_agent";
    for (int n = 2; by_name_.count(name); ++n) name = fmt::format("{}_{}_agent", base, n);
    return add(name, fmt::format("Specialized agent for {} tasks.", topic));
  }
  Group& named(const std::string& name, const std::string& description) {
    auto it = by_name_.find(name);
    if (it != by_name_.end()) return groups_[it->second];
    return add(name, description);
  }
  std::vector<Group> take() { return {std::make_move_iterator(groups_.begin()), std::make_move_iterator(groups_.end())}; }

 private:
  Group& add(const std::string& name, const std::string& description) {
    by_name_[name] = groups_.size();
    groups_.push_back({name, description, {}});
    return groups_.back();
  }
  std::deque<Group> groups_;  // a deque: references handed out stay valid as groups are added
  std::map<std::string, std::size_t> by_name_;
};

std::string topic_of(const std::string& name) { return join(name_parts(name), " "); }

}  // namespace

double schema_similarity(const Json& a, const Json& b) {
  std::set<std::string> x = property_names(a), y = property_names(b);
  if (x.empty() || y.empty()) return 0.0;
  std::size_t common = 0;
  for (const std::string& name : x) common += y.count(name);
  return static_cast<double>(common) / static_cast<double>(x.size() + y.size() - common);
}

std::string tool_label(const Group& group, const GroupedTool& tool) {
  int same = 0;
  for (const GroupedTool& other : group.tools) same += other.tool.name == tool.tool.name;
  return same > 1 ? tool.tool.server + "/" + tool.tool.name : tool.tool.name;
}

std::vector<Group> group_tools(const std::vector<DiscoveredTool>& tools, const Rules& rules, double similarity) {
  GroupSet groups;
  std::vector<const DiscoveredTool*> remaining;

  // 1. Rules, in file order; groups appear in the rules' order.
  std::map<std::string, std::vector<GroupedTool>> by_rule;
  for (const DiscoveredTool& tool : tools) {
    bool placed = false;
    for (const GroupRule& rule : rules.groups) {
      if (auto why = rule_match(rule, tool)) {
        by_rule[rule.name].push_back({tool, *why});
        placed = true;
        break;
      }
    }
    if (!placed) remaining.push_back(&tool);
  }
  for (const GroupRule& rule : rules.groups) {
    auto it = by_rule.find(rule.name);
    if (it == by_rule.end()) continue;
    std::string description = rule.description.empty()
        ? fmt::format("Specialized agent for {} tasks.", topic_of(rule.name.substr(0, rule.name.size() - 6)))
        : rule.description;
    groups.named(rule.name, description).tools = it->second;
  }

  // 2. Shared name prefixes.
  std::map<std::string, int> prefix_count;
  auto prefix_of = [](const DiscoveredTool* t) {
    std::vector<std::string> parts = name_parts(t->name);
    return parts.size() >= 2 ? parts.front() : std::string();
  };
  for (const DiscoveredTool* t : remaining) {
    if (std::string p = prefix_of(t); !p.empty()) ++prefix_count[p];
  }
  std::map<std::string, Group*> prefix_groups;
  std::vector<const DiscoveredTool*> after_prefix;
  for (const DiscoveredTool* t : remaining) {
    std::string p = prefix_of(t);
    if (p.empty() || prefix_count[p] < 2) {
      after_prefix.push_back(t);
      continue;
    }
    if (!prefix_groups.count(p)) prefix_groups[p] = &groups.fresh(p, p);
    prefix_groups[p]->tools.push_back({*t, fmt::format("shares the name prefix '{}' with {} other tool(s)", p, prefix_count[p] - 1)});
  }

  // 3. Similar input schemas, greedily around the first tool of each cluster.
  std::vector<std::vector<const DiscoveredTool*>> clusters;
  for (const DiscoveredTool* t : after_prefix) {
    bool joined = false;
    for (auto& cluster : clusters) {
      if (schema_similarity(cluster.front()->input_schema, t->input_schema) >= similarity) {
        cluster.push_back(t);
        joined = true;
        break;
      }
    }
    if (!joined) clusters.push_back({t});
  }
  std::vector<const DiscoveredTool*> leftovers;
  for (const auto& cluster : clusters) {
    if (cluster.size() < 2) {
      leftovers.push_back(cluster.front());
      continue;
    }
    std::set<std::string> shared = property_names(cluster.front()->input_schema);
    for (const DiscoveredTool* t : cluster) {
      std::set<std::string> mine = property_names(t->input_schema), keep;
      std::set_intersection(shared.begin(), shared.end(), mine.begin(), mine.end(), std::inserter(keep, keep.begin()));
      if (!keep.empty()) shared = keep;
    }
    std::string property = *shared.begin();
    Group& group = groups.fresh(identifier_of(property), topic_of(property));
    for (const DiscoveredTool* t : cluster) {
      group.tools.push_back({*t, fmt::format("input schema like {}'s (similarity {:.2f}, shared property '{}')",
                                             cluster.front()->name,
                                             schema_similarity(cluster.front()->input_schema, t->input_schema), property)});
    }
  }
  // Leftovers keep their discovery order (they point into `tools`).
  std::sort(leftovers.begin(), leftovers.end());

  // 4. By server.
  std::map<std::string, Group*> server_groups;
  for (const DiscoveredTool* t : leftovers) {
    if (!server_groups.count(t->server)) {
      std::string id = identifier_of(t->server);
      server_groups[t->server] = &groups.fresh(id.empty() ? "server" : id, "the " + t->server + " server's");
    }
    server_groups[t->server]->tools.push_back(
        {*t, fmt::format("no rule, shared prefix or similar schema: grouped with server {}", t->server)});
  }

  std::vector<Group> out = groups.take();
  if (mutant("tool-in-two-groups") && out.size() >= 2 && !out.front().tools.empty()) {
    out[1].tools.push_back(out.front().tools.front());  // fault: one tool in two groups
  }
  for (Group& group : out) {
    std::vector<std::string> labels;
    for (const GroupedTool& t : group.tools) labels.push_back(tool_label(group, t));
    group.description += " Tools: " + join(labels, ", ") + ".";
  }
  return out;
}

}  // namespace tamamo
