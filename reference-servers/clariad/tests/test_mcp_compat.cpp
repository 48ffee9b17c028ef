// MCP compatibility mode: initialize, ping, tools/list, tools/call next to the legacy methods.
#include <catch2/catch.hpp>
#include <chrono>

#include "capture_sink.hpp"
#include "server.hpp"

using namespace clariad;
using namespace std::chrono_literals;
using clariad::test::CaptureSink;
using clariad::test::request;

namespace {

struct Fixture {
  CaptureSink sink;
  Server server{sink, ServerConfig{}};

  Json call(const std::string& line) {
    sink.clear();
    server.handle_line(line);
    REQUIRE(sink.size() == 1);
    return sink.messages().front();
  }

  Json initialize(const std::string& version) {
    return call(request(0, "initialize",
                        {{"protocolVersion", version},
                         {"capabilities", Json::object()},
                         {"clientInfo", {{"name", "test"}, {"version", "1"}}}}));
  }
};

}  // namespace

TEST_CASE("initialize echoes a supported version and offers the latest otherwise", "[mcp]") {
  Fixture f;
  for (const char* v : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    const Json reply = f.initialize(v);
    CHECK(reply.at("result").at("protocolVersion") == v);
    CHECK(reply.at("result").at("capabilities").at("tools").at("listChanged") == false);
    CHECK(reply.at("result").at("serverInfo").at("name") == "clariad");
    CHECK(reply.at("result").at("serverInfo").at("version").is_string());
  }
  CHECK(f.initialize("1999-01-01").at("result").at("protocolVersion") == "2025-11-25");
  const Json bad = f.call(request(1, "initialize", {{"capabilities", Json::object()}}));
  CHECK(bad.at("error").at("code") == -32602);
  CHECK(bad.at("error").at("data").at("pointer") == "/params/protocolVersion");
  CHECK(f.call(request(2, "initialize")).at("error").at("code") == -32602);
}

TEST_CASE("ping answers an empty result", "[mcp]") {
  Fixture f;
  const Json reply = f.call(request("p", "ping"));
  CHECK(reply.at("result") == Json::object());
}

TEST_CASE("tools/list derives inputSchema from the legacy parameters", "[mcp]") {
  Fixture f;
  const Json legacy = f.call(request(1, "list_tools")).at("result").at("tools");
  f.initialize("2025-06-18");
  const Json tools = f.call(request(2, "tools/list")).at("result").at("tools");
  REQUIRE(tools.size() == legacy.size());
  for (std::size_t i = 0; i < tools.size(); ++i) {
    CHECK(tools[i].at("name") == legacy[i].at("name"));
    CHECK(tools[i].at("description") == legacy[i].at("description"));
    CHECK(tools[i].at("inputSchema") == legacy[i].at("parameters"));
    CHECK(tools[i].at("annotations").at("readOnlyHint") == true);
    CHECK_FALSE(tools[i].contains("parameters"));
  }
  f.initialize("2024-11-05");  // annotations arrived with 2025-03-26
  CHECK_FALSE(f.call(request(3, "tools/list")).at("result").at("tools")[0].contains("annotations"));
  CHECK(f.call(request(4, "tools/list", {{"cursor", "abc"}})).at("error").at("code") == -32602);
}

TEST_CASE("tools/call returns the same document as invoke_tool, as text content", "[mcp]") {
  Fixture f;
  const Json args = {{"project_description", "An AI-powered task management system"}};
  const Json legacy = f.call(request(1, "invoke_tool", {{"name", "vision_agent"}, {"parameters", args}}));
  const Json mcp = f.call(request(2, "tools/call", {{"name", "vision_agent"}, {"arguments", args}}));
  const Json& result = mcp.at("result");
  CHECK(result.at("isError") == false);
  REQUIRE(result.at("content").size() == 1);
  CHECK(result.at("content")[0].at("type") == "text");
  CHECK(result.at("content")[0].at("text") == legacy.at("result").at("output"));
}

TEST_CASE("tools/call reports argument problems as tool errors, unknown tools as -32602", "[mcp]") {
  Fixture f;
  const Json missing = f.call(request(1, "tools/call", {{"name", "vision_agent"}, {"arguments", Json::object()}}));
  CHECK(missing.at("result").at("isError") == true);
  CHECK_THAT(missing.at("result").at("content")[0].at("text").get<std::string>(), Catch::Contains("project_description"));
  CHECK(f.call(request(2, "tools/call", {{"name", "nope"}})).at("error").at("code") == -32602);
  CHECK(f.call(request(3, "tools/call", {{"name", "vision_agent"}, {"arguments", 5}})).at("error").at("code") == -32602);
  CHECK(f.call(request(4, "tools/call")).at("error").at("code") == -32602);
}

TEST_CASE("long_running_operation over tools/call: progress notifications, one response", "[mcp][streaming]") {
  Fixture f;
  f.initialize("2025-11-25");
  f.sink.clear();
  f.server.handle_line(request(7, "tools/call",
                               {{"name", "long_running_operation"},
                                {"arguments", {{"operation_name", "Sync"}, {"duration_seconds", 0.3}}},
                                {"_meta", {{"progressToken", "tok"}}}}));
  f.server.finish_operations();
  const std::vector<Json> messages = f.sink.messages();
  REQUIRE(messages.size() == 6);
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(messages[i].at("method") == "notifications/progress");
    CHECK_FALSE(messages[i].contains("id"));
    CHECK(messages[i].at("params").at("progressToken") == "tok");
    CHECK(messages[i].at("params").at("progress") == i);
    CHECK(messages[i].at("params").at("total") == 5);
    CHECK(messages[i].at("params").at("message").is_string());
  }
  CHECK(messages[5].at("id") == 7);
  CHECK(messages[5].at("result").at("isError") == false);
  CHECK_THAT(messages[5].at("result").at("content")[0].at("text").get<std::string>(), Catch::StartsWith("Completed operation: Sync"));

  // Without a progress token there is nothing but the response.
  f.sink.clear();
  f.server.handle_line(request(8, "tools/call",
                               {{"name", "long_running_operation"},
                                {"arguments", {{"operation_name", "Sync"}, {"duration_seconds", 0}}}}));
  f.server.finish_operations();
  REQUIRE(f.sink.size() == 1);
  CHECK(f.sink.messages().front().at("id") == 8);
}
