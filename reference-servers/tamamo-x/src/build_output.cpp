#include "build_output.hpp"

#include "config.hpp"


#include <fmt/format.h>

namespace tamamo {

using mcpref::Json;

Json build_result_to_json(const BuildResult& result) {
  Json servers = Json::array();
  for (const ServerDiscovery& s : result.servers) {
    Json entry = {{"name", s.server}, {"ok", s.ok}};
    if (s.ok) {
      entry["protocolVersion"] = s.protocol_version;
      entry["serverInfo"] = s.server_info;
      entry["toolCount"] = s.tools.size();
    } else {
      entry["error"] = s.error;
    }
    if (!s.warnings.empty()) entry["warnings"] = s.warnings;
    servers.push_back(entry);
  }
  Json groups = Json::array();
  for (const Group& g : result.groups) {
    Json tools = Json::array();
    for (const GroupedTool& t : g.tools) {
      tools.push_back({{"server", t.tool.server},
                       {"name", t.tool.name},
                       {"description", t.tool.description},
                       {"inputSchema", t.tool.input_schema},
                       {"reason", t.reason}});
    }
    groups.push_back({{"name", g.name}, {"description", g.description}, {"tools", tools}});
  }
  return {{"version", kVersion}, {"servers", servers}, {"groups", groups}};
}

std::vector<Group> groups_from_json(const Json& document, const std::string& where) {
  auto fail = [&](const std::string& at, const std::string& what) {
    return ConfigError(fmt::format("{}: {}: {} (run `tamamo-x-mcp build` again)", where, at, what));
  };
  if (!document.is_object() || !document.contains("groups") || !document["groups"].is_array()) {
    throw fail("/groups", "must be an array");
  }
  std::vector<Group> groups;
  for (std::size_t i = 0; i < document["groups"].size(); ++i) {
    const Json& g = document["groups"][i];
    std::string at = fmt::format("/groups/{}", i);
    if (!g.is_object() || !g.value("name", Json()).is_string() || !g.value("description", Json()).is_string() ||
        !g.value("tools", Json()).is_array()) {
      throw fail(at, "needs a name, a description and a tools array");
    }
    Group group{g["name"].get<std::string>(), g["description"].get<std::string>(), {}};
    for (std::size_t j = 0; j < g["tools"].size(); ++j) {
      const Json& t = g["tools"][j];
      if (!t.is_object() || !t.value("server", Json()).is_string() || !t.value("name", Json()).is_string() ||
          !t.value("inputSchema", Json()).is_object()) {
        throw fail(fmt::format("{}/tools/{}", at, j), "needs server, name and an inputSchema object");
      }
      group.tools.push_back({{t["server"].get<std::string>(), t["name"].get<std::string>(),
                              t.value("description", std::string()), t["inputSchema"]},
                             t.value("reason", std::string())});
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

std::vector<Group> load_groups(const std::filesystem::path& file) {
  return groups_from_json(read_json_file(file, 16u << 20, "run `tamamo-x-mcp build` first"), file.string());
}

}  // namespace tamamo
