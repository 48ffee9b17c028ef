#include "grouping_rules.hpp"

#include "config.hpp"


#include <fmt/format.h>

#include <set>

namespace tamamo {

using mcpref::Json;

namespace {

std::vector<std::string> string_list(const Json& rule, const char* key, const std::string& where) {
  std::vector<std::string> out;
  if (!rule.contains(key)) return out;
  const Json& list = rule[key];
  if (!list.is_array()) throw ConfigError(fmt::format("{}/{}: must be an array of strings", where, key));
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string() || list[i].get<std::string>().empty()) {
      throw ConfigError(fmt::format("{}/{}/{}: must be a non-empty string", where, key, i));
    }
    out.push_back(list[i].get<std::string>());
  }
  return out;
}

}  // namespace

Rules parse_rules(const Json& document, const std::string& where) {
  if (!document.is_object() || !document.contains("groups") || !document["groups"].is_array()) {
    throw ConfigError(where + ": must be an object with a 'groups' array");
  }
  Rules rules;
  std::set<std::string> names;
  const Json& groups = document["groups"];
  for (std::size_t i = 0; i < groups.size(); ++i) {
    std::string at = fmt::format("{}: /groups/{}", where, i);
    const Json& g = groups[i];
    if (!g.is_object()) throw ConfigError(at + ": must be an object");
    GroupRule rule;
    if (!g.contains("name") || !g["name"].is_string()) throw ConfigError(at + ": 'name' (a string) is required");
    rule.name = g["name"].get<std::string>();
    bool name_ok = rule.name.size() > 6 && rule.name.ends_with("_agent") &&
                   rule.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
    if (!name_ok) throw ConfigError(at + "/name: must be lower-case letters, digits and '_', ending in _agent");
    if (!names.insert(rule.name).second) throw ConfigError(at + "/name: '" + rule.name + "' is used twice");
    if (g.contains("description")) {
      if (!g["description"].is_string() || !g["description"].get<std::string>().starts_with("Specialized agent")) {
        throw ConfigError(at + "/description: must be a string starting with \"Specialized agent\"");
      }
      rule.description = g["description"].get<std::string>();
    }
    rule.tools = string_list(g, "tools", at);
    rule.prefixes = string_list(g, "prefixes", at);
    rule.keywords = string_list(g, "keywords", at);
    rule.servers = string_list(g, "servers", at);
    if (rule.tools.empty() && rule.prefixes.empty() && rule.keywords.empty() && rule.servers.empty()) {
      throw ConfigError(at + ": names no tools, prefixes, keywords or servers, so it can hold nothing");
    }
    rules.groups.push_back(std::move(rule));
  }
  return rules;
}

Rules load_rules(const std::filesystem::path& file) {
  return parse_rules(read_json_file(file, 1u << 20, "the grouping rules file"), file.string());
}

}  // namespace tamamo
