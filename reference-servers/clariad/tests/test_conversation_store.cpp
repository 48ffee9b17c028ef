// Conversation context: bounded, least-recently-used eviction, and its use across tool calls.
#include <catch2/catch.hpp>

#include "capture_sink.hpp"
#include "conversation_store.hpp"
#include "server.hpp"

using namespace clariad;
using clariad::test::CaptureSink;
using clariad::test::request;

namespace {

ContextEntry entry(std::size_t output_bytes) { return ContextEntry{"t", std::string(output_bytes, 'x'), nullptr}; }

std::string invoke(Server& server, CaptureSink& sink, const std::string& tool, const Json& parameters) {
  sink.clear();
  server.handle_line(request(1, "invoke_tool", {{"name", tool}, {"parameters", parameters}}));
  REQUIRE(sink.size() == 1);
  const Json reply = sink.messages().front();
  REQUIRE(reply.contains("result"));
  return reply.at("result").at("output").get<std::string>();
}

}  // namespace

TEST_CASE("the least recently used conversation is evicted beyond the limit", "[context]") {
  ConversationStore store({3, 1 << 20});
  store.append("a", entry(1));
  store.append("b", entry(1));
  store.append("c", entry(1));
  CHECK(store.entries("a").size() == 1);  // reading counts as use: now b is the oldest
  store.append("d", entry(1));
  CHECK(store.conversation_count() == 3);
  CHECK(store.contains("a"));
  CHECK_FALSE(store.contains("b"));
  CHECK(store.contains("c"));
  CHECK(store.contains("d"));
  store.append("c", entry(1));  // writing counts as use too: now a is the oldest
  store.append("e", entry(1));
  CHECK_FALSE(store.contains("a"));
  CHECK(store.entry_count("c") == 2);
}

TEST_CASE("a conversation over its byte budget drops its oldest entries", "[context]") {
  ConversationStore store({4, 1000});
  store.append("a", entry(400));
  store.append("a", entry(400));
  CHECK(store.entry_count("a") == 2);
  store.append("a", entry(400));
  CHECK(store.entry_count("a") == 2);
  CHECK(store.bytes_of("a") <= 1000);
  // A single entry larger than the budget is kept alone: the latest result always survives.
  store.append("a", entry(5000));
  CHECK(store.entry_count("a") == 1);
  CHECK(store.entries("a").front().output.size() == 5000);
}

TEST_CASE("superseded results are evicted before the latest result of another tool", "[context]") {
  ConversationStore store({4, 1000});
  store.append("a", ContextEntry{"vision", std::string(300, 'v'), nullptr});
  store.append("a", ContextEntry{"arch", std::string(300, '1'), nullptr});
  store.append("a", ContextEntry{"arch", std::string(300, '2'), nullptr});
  store.append("a", ContextEntry{"arch", std::string(300, '3'), nullptr});
  const std::vector<ContextEntry> kept = store.entries("a");
  REQUIRE(kept.size() == 3);
  CHECK(kept[0].tool == "vision");  // the oldest entry, but still the latest vision
  CHECK(kept[1].output[0] == '2');
  CHECK(kept[2].output[0] == '3');
}

TEST_CASE("unknown conversations have no context", "[context]") {
  ConversationStore store({2, 100});
  CHECK(store.entries("nope").empty());
  CHECK_FALSE(store.contains("nope"));  // looking does not create
}

TEST_CASE("the architecture agent sees the vision of its own conversation only", "[context][dispatch]") {
  CaptureSink sink;
  Server server(sink, ServerConfig{});
  invoke(server, sink, "vision_agent", {{"project_description", "An AI-powered task management system"}, {"conversation_id", "p1"}});

  const std::string same = invoke(server, sink, "architecture_agent",
                                  {{"project_name", "TaskPilot"}, {"requirements", "Users create tasks."}, {"conversation_id", "p1"}});
  CHECK_THAT(same, Catch::Contains("Vision & Scope revision 1 (\"AI-Powered Task Management System\")"));

  const std::string other = invoke(server, sink, "architecture_agent",
                                   {{"project_name", "TaskPilot"}, {"requirements", "Users create tasks."}, {"conversation_id", "p2"}});
  CHECK_THAT(other, Catch::Contains("| Based on | Requirements only"));

  const std::string none = invoke(server, sink, "architecture_agent", {{"project_name", "TaskPilot"}, {"requirements", "Users create tasks."}});
  CHECK_THAT(none, Catch::Contains("| Based on | Requirements only"));
  CHECK(server.conversations().conversation_count() == 2);  // calls without conversation_id store nothing

  const std::string second_vision =
      invoke(server, sink, "vision_agent", {{"project_description", "An AI-powered task management system"}, {"conversation_id", "p1"}});
  CHECK_THAT(second_vision, Catch::Contains("| Revision | 2 (supersedes revision 1) |"));
}

TEST_CASE("an evicted conversation starts over", "[context][dispatch]") {
  CaptureSink sink;
  ServerConfig config;
  config.conversations.max_conversations = 64;
  Server server(sink, config);
  invoke(server, sink, "vision_agent", {{"project_description", "A budgeting app"}, {"conversation_id", "first"}});
  for (int i = 0; i < 64; ++i) {
    invoke(server, sink, "vision_agent", {{"project_description", "A budgeting app"}, {"conversation_id", "c" + std::to_string(i)}});
  }
  CHECK(server.conversations().conversation_count() == 64);
  CHECK_FALSE(server.conversations().contains("first"));
  const std::string arch = invoke(server, sink, "architecture_agent",
                                  {{"project_name", "Budget"}, {"requirements", "Track expenses"}, {"conversation_id", "first"}});
  CHECK_THAT(arch, Catch::Contains("| Based on | Requirements only"));
  CHECK(server.conversations().contains("c63"));
}
