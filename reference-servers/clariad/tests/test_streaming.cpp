// long_running_operation: several in_progress responses with the request's id, then the final
// one, paced by duration_seconds, while other requests are still answered.
#include <catch2/catch.hpp>
#include <chrono>

#include "capture_sink.hpp"
#include "server.hpp"

using namespace clariad;
using namespace std::chrono_literals;
using clariad::test::CaptureSink;
using clariad::test::request;

namespace {

Json operation(const std::string& name, double seconds) {
  return {{"name", "long_running_operation"}, {"parameters", {{"operation_name", name}, {"duration_seconds", seconds}}}};
}

std::vector<Json> with_id(const std::vector<Json>& messages, const Json& id) {
  std::vector<Json> out;
  for (const Json& m : messages) {
    if (m.contains("id") && m.at("id") == id) out.push_back(m);
  }
  return out;
}

}  // namespace

TEST_CASE("the plan has one update per second, between 5 and 60", "[streaming]") {
  CHECK(plan_operation(0).updates == 5);
  CHECK(plan_operation(1).updates == 5);
  CHECK(plan_operation(7.2).updates == 8);
  CHECK(plan_operation(10).updates == 10);
  CHECK(plan_operation(600).updates == 60);
  const OperationPlan p = plan_operation(1);
  CHECK(p.offsets == std::vector<double>{0.0, 0.2, 0.4, 0.6, 0.8});
  CHECK(progress_text("Complex Analysis", 2, plan_operation(10), 10) == "Complex Analysis: 20% complete (2 of 10 seconds)");
  CHECK(progress_text("X", 1, p, 1) == "X: 20% complete (0.2 of 1 seconds)");
  CHECK(completion_text("X", p, 1) == "Completed operation: X (1 seconds, 5 progress updates)");
}

TEST_CASE("in_progress responses then a final one, same id, in order, paced", "[streaming]") {
  CaptureSink sink;
  Server server(sink, ServerConfig{});
  const auto start = std::chrono::steady_clock::now();
  server.handle_line(request("invoke-2", "invoke_tool", operation("Complex Analysis", 0.5)));
  REQUIRE(sink.wait_for(6, 5s));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(elapsed >= 500ms);
  CHECK(elapsed < 3s);
  server.finish_operations();

  const std::vector<Json> messages = sink.messages();
  REQUIRE(messages.size() == 6);
  for (std::size_t i = 0; i < 5; ++i) {
    INFO(messages[i].dump());
    CHECK(messages[i].at("jsonrpc") == "2.0");
    CHECK(messages[i].at("id") == "invoke-2");
    CHECK(messages[i].at("result").at("status") == "in_progress");
    CHECK(messages[i].at("result").at("output") ==
          "Complex Analysis: " + std::to_string(i * 20) + "% complete (" +
              std::vector<std::string>{"0", "0.1", "0.2", "0.3", "0.4"}[i] + " of 0.5 seconds)");
  }
  CHECK(messages[5].at("id") == "invoke-2");
  CHECK_FALSE(messages[5].at("result").contains("status"));
  CHECK(messages[5].at("result").at("output") == "Completed operation: Complex Analysis (0.5 seconds, 5 progress updates)");
}

TEST_CASE("other requests are answered while an operation streams", "[streaming]") {
  CaptureSink sink;
  Server server(sink, ServerConfig{});
  server.handle_line(request(1, "invoke_tool", operation("slow", 1)));
  REQUIRE(sink.wait_for(1, 2s));  // the first update goes out at once
  server.handle_line(request(2, "list_tools"));
  server.handle_line(request(3, "invoke_tool", operation("fast", 0.2)));
  server.finish_operations();

  const std::vector<Json> messages = sink.messages();
  std::size_t list_at = messages.size(), slow_final = messages.size(), fast_final = messages.size();
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Json& m = messages[i];
    if (m.at("id") == 2) list_at = i;
    if (m.at("id") == 1 && !m.at("result").contains("status")) slow_final = i;
    if (m.at("id") == 3 && !m.at("result").contains("status")) fast_final = i;
  }
  REQUIRE(list_at < messages.size());
  REQUIRE(slow_final < messages.size());
  REQUIRE(fast_final < messages.size());
  CHECK(list_at < slow_final);
  CHECK(fast_final < slow_final);  // the shorter operation, started later, finishes first
  CHECK(with_id(messages, 1).size() == 6);
  CHECK(with_id(messages, 3).size() == 6);
  CHECK(with_id(messages, 1).back() == messages[slow_final]);
}

TEST_CASE("a request reusing the id of a running stream is refused", "[streaming][errors]") {
  CaptureSink sink;
  Server server(sink, ServerConfig{});
  server.handle_line(request("dup", "invoke_tool", operation("a", 0.5)));
  REQUIRE(sink.wait_for(1, 2s));
  server.handle_line(request("dup", "list_tools"));
  server.finish_operations();
  const std::vector<Json> same = with_id(sink.messages(), "dup");
  std::size_t errors = 0;
  for (const Json& m : same) {
    if (m.contains("error")) {
      ++errors;
      CHECK(m.at("error").at("code") == -32600);
      CHECK(m.at("error").at("data").at("pointer") == "/id");
    }
  }
  CHECK(errors == 1);
  CHECK(same.size() == 7);  // 5 updates + final + the refusal

  // Once the final response is out, the id may be used again.
  sink.clear();
  server.handle_line(request("dup", "list_tools"));
  REQUIRE(sink.size() == 1);
  CHECK(sink.messages().front().contains("result"));
}

TEST_CASE("notifications/cancelled stops a stream without a final response", "[streaming]") {
  CaptureSink sink;
  Server server(sink, ServerConfig{});
  server.handle_line(request("c", "invoke_tool", operation("cancel me", 30)));
  REQUIRE(sink.wait_for(1, 2s));
  const auto start = std::chrono::steady_clock::now();
  server.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}})");
  server.finish_operations();
  CHECK(std::chrono::steady_clock::now() - start < 2s);
  const std::vector<Json> messages = sink.messages();
  REQUIRE_FALSE(messages.empty());
  for (const Json& m : messages) CHECK(m.at("result").at("status") == "in_progress");
  CHECK(server.operations().running() == 0);
}

TEST_CASE("a stream stops when the output is gone", "[streaming]") {
  CaptureSink sink;
  Server server(sink, ServerConfig{});
  server.handle_line(request("x", "invoke_tool", operation("orphan", 2)));
  REQUIRE(sink.wait_for(1, 2s));
  sink.close();
  const auto start = std::chrono::steady_clock::now();
  server.finish_operations();  // ends at the next update (0.4 s), not after 2 s
  CHECK(std::chrono::steady_clock::now() - start < 1500ms);
}
