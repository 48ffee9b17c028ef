// Method dispatch of the legacy dialect and every documented error code, through Server.
#include <catch2/catch.hpp>

#include "capture_sink.hpp"
#include "server.hpp"
#include "tool_catalog.hpp"

using namespace clariad;
using clariad::test::CaptureSink;
using clariad::test::request;

namespace {

struct Fixture {
  CaptureSink sink;
  Server server{sink, ServerConfig{}};

  // Sends one line and returns the single message it produced.
  Json call(const std::string& line) {
    sink.clear();
    server.handle_line(line);
    REQUIRE(sink.size() == 1);
    return sink.messages().front();
  }
};

void check_error(const Json& reply, int code, const std::string& message) {
  REQUIRE(reply.contains("error"));
  CHECK(reply.at("jsonrpc") == "2.0");
  CHECK(reply.at("error").at("code") == code);
  CHECK(reply.at("error").at("message") == message);
  CHECK(reply.at("error").at("data").at("detail").is_string());
  CHECK_FALSE(reply.contains("result"));
}

Json vision_call(const std::string& description, const Json& conversation = nullptr) {
  Json parameters = {{"project_description", description}};
  if (!conversation.is_null()) parameters["conversation_id"] = conversation;
  return {{"name", "vision_agent"}, {"parameters", parameters}};
}

}  // namespace

TEST_CASE("list_tools lists the three documented tools with parameters", "[dispatch]") {
  Fixture f;
  const Json reply = f.call(R"({"jsonrpc": "2.0", "id": "tools-1", "method": "list_tools"})");
  CHECK(reply.at("id") == "tools-1");
  const Json& tools = reply.at("result").at("tools");
  REQUIRE(tools.size() == 3);
  CHECK(tools[0].at("name") == "vision_agent");
  CHECK(tools[0].at("description") == "Creates Vision & Scope documents to establish project requirements and goals");
  CHECK(tools[0].at("parameters").at("type") == "object");
  CHECK(tools[0].at("parameters").at("properties").at("project_description").at("type") == "string");
  CHECK(tools[0].at("parameters").at("properties").at("project_description").at("description") == "Brief description of the project");
  CHECK(tools[0].at("parameters").at("properties").at("conversation_id").at("description") ==
        "Optional ID to maintain context between conversations");
  CHECK(tools[0].at("parameters").at("required") == Json::array({"project_description"}));
  CHECK(tools[1].at("name") == "architecture_agent");
  CHECK(tools[1].at("parameters").at("required") == Json::array({"project_name", "requirements"}));
  CHECK(tools[2].at("name") == "long_running_operation");
  CHECK(tools[2].at("parameters").at("properties").at("duration_seconds").at("type") == "number");
  CHECK(tools[2].at("parameters").at("required") == Json::array({"operation_name", "duration_seconds"}));
  CHECK_FALSE(tools[0].contains("inputSchema"));  // the legacy dialect says "parameters"

  // An empty params object is fine too.
  CHECK(f.call(request(2, "list_tools", Json::object())).at("result").at("tools").size() == 3);
  check_error(f.call(request(3, "list_tools", Json::array({1}))), -32602, "Invalid params");
}

TEST_CASE("invoke_tool returns the document in result.output", "[dispatch]") {
  Fixture f;
  const Json reply = f.call(request("invoke-1", "invoke_tool", vision_call("An AI-powered task management system", "project-123")));
  CHECK(reply.at("id") == "invoke-1");
  REQUIRE(reply.at("result").at("output").is_string());
  CHECK(reply.at("result").size() == 1);  // output only, no status: it is not a streamed response
  CHECK_THAT(reply.at("result").at("output").get<std::string>(), Catch::StartsWith("# Vision & Scope: AI-Powered Task Management System"));

  const Json arch = f.call(request("invoke-2", "invoke_tool",
                                   {{"name", "architecture_agent"},
                                    {"parameters", {{"project_name", "TaskPilot"}, {"requirements", "Users create tasks."}}}}));
  CHECK_THAT(arch.at("result").at("output").get<std::string>(), Catch::StartsWith("# Architecture: TaskPilot"));
}

TEST_CASE("error -32700: Parse error for invalid JSON", "[dispatch][errors]") {
  Fixture f;
  const Json reply = f.call("{not json");
  check_error(reply, -32700, "Parse error");
  CHECK(reply.at("id").is_null());
}

TEST_CASE("error -32600: Invalid request for non-request JSON", "[dispatch][errors]") {
  Fixture f;
  check_error(f.call(R"({"id": 1, "method": "list_tools"})"), -32600, "Invalid request");
  check_error(f.call(R"([1,2])"), -32600, "Invalid request");
  check_error(f.call(R"({"jsonrpc":"2.0","id":false,"method":"list_tools"})"), -32600, "Invalid request");
  const Json reply = f.call(R"({"jsonrpc":"2.0","id":"x"})");
  check_error(reply, -32600, "Invalid request");
  CHECK(reply.at("id") == "x");
  CHECK(reply.at("error").at("data").at("pointer") == "/method");
}

TEST_CASE("error -32600: for an overlong line", "[dispatch][errors]") {
  Fixture f;
  f.server.handle_overlong_line(5000000);
  REQUIRE(f.sink.size() == 1);
  const Json reply = f.sink.messages().front();
  check_error(reply, -32600, "Invalid request");
  CHECK_THAT(reply.at("error").at("data").at("detail").get<std::string>(), Catch::Contains("5000000"));
}

TEST_CASE("error -32601: Method not found for unknown methods", "[dispatch][errors]") {
  Fixture f;
  const Json reply = f.call(request(9, "tools/invoke"));
  check_error(reply, -32601, "Method not found");
  CHECK(reply.at("id") == 9);
  CHECK_THAT(reply.at("error").at("data").at("detail").get<std::string>(), Catch::Contains("tools/invoke"));
  check_error(f.call(request(10, "")), -32601, "Method not found");
}

TEST_CASE("error -32602: Invalid params names the offending value", "[dispatch][errors]") {
  Fixture f;
  struct Case {
    Json params;
    std::string pointer;
  };
  const std::vector<Case> cases = {
      {nullptr, "/params"},
      {Json::array({"vision_agent"}), "/params"},
      {{{"parameters", Json::object()}}, "/params/name"},
      {{{"name", 5}}, "/params/name"},
      {{{"name", "no_such_tool"}, {"parameters", Json::object()}}, "/params/name"},
      {{{"name", "vision_agent"}, {"parameters", Json::object()}}, "/params/parameters/project_description"},
      {{{"name", "vision_agent"}, {"parameters", {{"project_description", 12}}}}, "/params/parameters/project_description"},
      {{{"name", "vision_agent"}, {"parameters", {{"project_description", "   "}}}}, "/params/parameters/project_description"},
      {{{"name", "vision_agent"}, {"parameters", {{"project_description", "x"}, {"extra", 1}}}}, "/params/parameters/extra"},
      {{{"name", "vision_agent"}, {"parameters", "x"}}, "/params/parameters"},
      {{{"name", "vision_agent"}, {"parameters", {{"project_description", "x"}}}, {"args", 1}}, "/params/args"},
      {{{"name", "architecture_agent"}, {"parameters", {{"project_name", "P"}}}}, "/params/parameters/requirements"},
      {{{"name", "long_running_operation"}, {"parameters", {{"operation_name", "op"}, {"duration_seconds", "5"}}}},
       "/params/parameters/duration_seconds"},
      {{{"name", "long_running_operation"}, {"parameters", {{"operation_name", "op"}, {"duration_seconds", 601}}}},
       "/params/parameters/duration_seconds"},
      {{{"name", "long_running_operation"}, {"parameters", {{"operation_name", "op"}, {"duration_seconds", -1}}}},
       "/params/parameters/duration_seconds"},
      {{{"name", "long_running_operation"}, {"parameters", {{"operation_name", "op"}, {"duration_seconds", true}}}},
       "/params/parameters/duration_seconds"},
  };
  int id = 100;
  for (const Case& c : cases) {
    INFO(c.params.dump());
    const Json reply = f.call(request(id, "invoke_tool", c.params));
    check_error(reply, -32602, "Invalid params");
    CHECK(reply.at("id") == id);
    CHECK(reply.at("error").at("data").at("pointer") == c.pointer);
    ++id;
  }
}

TEST_CASE("error -32603: Internal error when too many operations are streaming", "[dispatch][errors]") {
  CaptureSink sink;
  ServerConfig config;
  config.max_operations = 1;
  Server server(sink, config);
  const Json op = {{"name", "long_running_operation"}, {"parameters", {{"operation_name", "a"}, {"duration_seconds", 1}}}};
  server.handle_line(request("a", "invoke_tool", op));
  server.handle_line(request("b", "invoke_tool", op));
  bool found = false;
  for (const Json& m : sink.messages()) {
    if (m.at("id") == "b") {
      check_error(m, -32603, "Internal error");
      found = true;
    }
  }
  CHECK(found);
  server.cancel_operations();
  server.finish_operations();
}

TEST_CASE("notifications and replies never get an answer", "[dispatch]") {
  Fixture f;
  f.server.handle_line(R"({"jsonrpc":"2.0","method":"list_tools"})");
  f.server.handle_line(R"({"jsonrpc":"2.0","method":"no/such/notification"})");
  f.server.handle_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  f.server.handle_line(R"({"jsonrpc":"2.0","id":3,"result":{}})");
  f.server.handle_line("");
  CHECK(f.sink.size() == 0);
}

TEST_CASE("huge parameters are refused with a clear error, not processed", "[dispatch][errors]") {
  Fixture f;
  const std::string big(kMaxDescriptionChars + 1, 'a');
  const Json reply = f.call(request(1, "invoke_tool", vision_call(big)));
  check_error(reply, -32602, "Invalid params");
  CHECK_THAT(reply.at("error").at("data").at("detail").get<std::string>(), Catch::Contains("20001"));
}

TEST_CASE("error details quoting invalid UTF-8 still produce valid JSON lines", "[dispatch][errors]") {
  Fixture f;
  f.server.handle_line("\x80\x81 not json");
  REQUIRE(f.sink.size() == 1);
  CHECK_NOTHROW(Json::parse(f.sink.lines().front()));
}
