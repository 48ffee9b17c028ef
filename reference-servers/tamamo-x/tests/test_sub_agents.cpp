// Picking the grouped tool(s) for a task, and their arguments, without calling anything.
#include "sub_agents.hpp"

#include "mcpref/jsonrpc.hpp"

#include <catch2/catch.hpp>

using mcpref::Json;

namespace {

tamamo::Group sample_group() {
  auto schema = [](Json props, Json required) {
    return Json{{"type", "object"}, {"properties", props}, {"required", required}};
  };
  tamamo::Group g{"web_agent", "Specialized agent for web tasks.", {}};
  g.tools.push_back({{"web", "search_web", "Search the web for information",
                      schema({{"query", {{"type", "string"}}}, {"limit", {{"type", "integer"}}}}, {"query"})}, ""});
  g.tools.push_back({{"web", "fetch_url", "Fetch a page by its address",
                      schema({{"url", {{"type", "string"}}}}, {"url"})}, ""});
  g.tools.push_back({{"calc", "add", "Adds two numbers", schema({{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}, {"a", "b"})}, ""});
  return g;
}

Json rpc_error_data(const std::function<void()>& f) {
  try {
    f();
  } catch (const mcpref::rpc::RpcError& e) {
    return e.data();
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the task's words pick the best-scoring tools, none fitting picks nothing") {
  tamamo::Group g = sample_group();
  auto names = [&](const std::string& task) {
    std::vector<std::string> out;
    for (const auto* t : tamamo::SubAgents::select(g, task, Json::object()).tools) out.push_back(t->tool.name);
    return out;
  };
  CHECK(names("search the web for MCP news") == std::vector<std::string>{"search_web"});
  CHECK(names("fetch_url https://example.org") == std::vector<std::string>{"fetch_url"});
  CHECK(names("add 1 and 2") == std::vector<std::string>{"add"});
  CHECK(names("qqq zzz").empty());
}

TEST_CASE("data.tool picks one tool explicitly, a tool outside the group is -32602 naming it") {
  tamamo::Group g = sample_group();
  auto chosen = tamamo::SubAgents::select(g, "anything", {{"tool", "web/fetch_url"}});
  REQUIRE(chosen.tools.size() == 1);
  CHECK(chosen.tools[0]->tool.name == "fetch_url");
  Json data = rpc_error_data([&] { tamamo::SubAgents::select(g, "x", {{"tool", "delete_all"}}); });
  CHECK(data["toolName"] == "delete_all");
  CHECK(data["details"].get<std::string>().find("search_web, fetch_url, add") != std::string::npos);
}

TEST_CASE("arguments: data members the schema names, strings and numbers read from the task, else an error") {
  tamamo::Group g = sample_group();
  const auto& search = g.tools[0];
  const auto& add = g.tools[2];
  CHECK(tamamo::SubAgents::arguments_for(search, "search_web typescript tips", Json::object(), false) ==
        Json{{"query", "typescript tips"}});
  CHECK(tamamo::SubAgents::arguments_for(search, "search for cats", {{"limit", 3}, {"other", 1}}, false) ==
        Json{{"limit", 3}, {"query", "cats"}});
  CHECK(tamamo::SubAgents::arguments_for(add, "add -2 and 3.5", Json::object(), false) == Json{{"a", -2.0}, {"b", 3.5}});
  Json data = rpc_error_data([&] { tamamo::SubAgents::arguments_for(add, "add one and two", Json::object(), false); });
  CHECK(data["toolName"] == "add");
  CHECK(data["details"].get<std::string>().find("'a'") != std::string::npos);
  CHECK(tamamo::SubAgents::arguments_for(add, "x", {{"tool", "add"}, {"arguments", {{"a", 1}}}}, true) == Json{{"a", 1}});
}

TEST_CASE("every sub-agent has the documented input schema: task required, data optional") {
  Json schema = tamamo::sub_agent_input_schema();
  CHECK(schema["required"] == Json::array({"task"}));
  CHECK(schema["properties"]["task"]["type"] == "string");
  CHECK(schema["properties"]["data"]["type"] == "object");
}
