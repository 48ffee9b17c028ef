// Grouping: every tool in exactly one group, each step of the algorithm, names and descriptions.
#include "grouping.hpp"

#include <catch2/catch.hpp>

#include <map>

using tamamo::DiscoveredTool;
using mcpref::Json;

namespace {

Json props(std::initializer_list<const char*> names) {
  Json p = Json::object();
  for (const char* n : names) p[n] = {{"type", "string"}};
  return {{"type", "object"}, {"properties", p}};
}

std::map<std::string, std::string> group_of(const std::vector<tamamo::Group>& groups) {
  std::map<std::string, std::string> where;
  for (const auto& g : groups) {
    for (const auto& t : g.tools) {
      std::string key = t.tool.server + "/" + t.tool.name;
      REQUIRE(where.count(key) == 0);  // exactly one group
      where[key] = g.name;
    }
  }
  return where;
}

}  // namespace

TEST_CASE("each step of the grouping, in order, with names and descriptions") {
  std::vector<DiscoveredTool> tools = {
      {"web", "search_web", "Search the web for information", props({"query", "limit"})},
      {"web", "fetch_url", "Fetch a page", props({"url"})},
      {"db", "db_query", "Run SQL", props({"sql"})},
      {"db", "db_schema", "Show tables", props({})},
      {"misc", "echo", "Echo text", props({"text"})},
      {"misc", "shout", "Shout text", props({"text", "volume"})},
      {"misc", "lonely", "Nothing like it", props({"zzz"})},
  };
  tamamo::Rules rules;
  rules.groups.push_back({"web_research_agent", "", {"fetch_url"}, {}, {"search"}, {}});
  auto groups = tamamo::group_tools(tools, rules, 0.5);
  auto where = group_of(groups);
  CHECK(where.size() == tools.size());
  CHECK(where["web/search_web"] == "web_research_agent");
  CHECK(where["web/fetch_url"] == "web_research_agent");
  CHECK(where["db/db_query"] == "db_agent");
  CHECK(where["db/db_schema"] == "db_agent");
  CHECK(where["misc/echo"] == "text_agent");
  CHECK(where["misc/shout"] == "text_agent");
  CHECK(where["misc/lonely"] == "misc_agent");
  for (const auto& g : groups) {
    CHECK(g.name.ends_with("_agent"));
    CHECK(g.description.starts_with("Specialized agent"));
    for (const auto& t : g.tools) CHECK_FALSE(t.reason.empty());
  }
  CHECK(groups.front().description.find("Tools: search_web, fetch_url.") != std::string::npos);
}

TEST_CASE("grouping is deterministic and names stay unique") {
  std::vector<DiscoveredTool> tools = {
      {"weather", "weather_a", "", props({"x"})}, {"weather", "weather_b", "", props({"y"})},
      {"weather", "solo", "", props({"q"})},
  };
  auto first = tamamo::group_tools(tools, {}, 0.5);
  auto second = tamamo::group_tools(tools, {}, 0.5);
  REQUIRE(first.size() == 2);
  CHECK(first[0].name == "weather_agent");
  CHECK(first[1].name == "weather_2_agent");  // the server group may not take the prefix group's name
  for (std::size_t i = 0; i < first.size(); ++i) CHECK(first[i].description == second[i].description);
}

TEST_CASE("same tool name from two servers is labelled server/name") {
  std::vector<DiscoveredTool> tools = {{"a", "echo", "", props({"text"})}, {"b", "echo", "", props({"text"})}};
  auto groups = tamamo::group_tools(tools, {}, 0.5);
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].description.find("a/echo, b/echo") != std::string::npos);
}

TEST_CASE("schema similarity is the Jaccard index of property names") {
  CHECK(tamamo::schema_similarity(props({"a", "b"}), props({"b", "c"})) == Approx(1.0 / 3));
  CHECK(tamamo::schema_similarity(props({}), props({"a"})) == 0.0);
}
