// The stdio loop in process, over pipes: calls run while the loop keeps reading, $/cancelRequest
// answers -32002, notifications/cancelled stops silently, shutdown then exit ends run() with 0.
#include "agent_server.hpp"

#include "mcpref/line_reader.hpp"
#include "mcpref/stdio_server.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <future>
#include <unistd.h>

using mcpref::Json;
namespace fs = std::filesystem;

namespace {

// An AgentServer on a thread, spoken to through two pipes.
class Running {
 public:
  explicit Running(std::chrono::milliseconds step) {
    REQUIRE(::pipe(to_agent_) == 0);
    REQUIRE(::pipe(from_agent_) == 0);
    speckit::AgentOptions o;
    o.in_fd = to_agent_[0];
    o.out_fd = from_agent_[1];
    o.step_pause = step;
    server_ = std::make_unique<speckit::AgentServer>(o);
    status_ = std::async(std::launch::async, [this] { return server_->run(); });
    reader_ = std::make_unique<mcpref::LineReader>(from_agent_[0]);
  }
  ~Running() {
    ::close(to_agent_[1]);  // end of input: run() returns
    if (status_.valid()) status_.wait();
    for (int fd : {to_agent_[0], from_agent_[0], from_agent_[1]}) ::close(fd);
  }
  void send(const Json& m) { REQUIRE(mcpref::write_all(to_agent_[1], mcpref::to_line(m) + "\n")); }
  Json next() {
    auto r = reader_->next();
    REQUIRE(r.status == mcpref::LineReader::Status::Line);
    return Json::parse(r.line);
  }
  // Skips progress notifications; returns the next other message.
  Json next_answer() {
    for (;;) {
      Json m = next();
      if (m.value("method", "") != "notifications/progress") return m;
    }
  }
  int exit_status() {
    REQUIRE(status_.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    return status_.get();
  }

 private:
  int to_agent_[2], from_agent_[2];
  std::unique_ptr<speckit::AgentServer> server_;
  std::future<int> status_;
  std::unique_ptr<mcpref::LineReader> reader_;
};

Json plan_call(const Json& id, const fs::path& dir) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
          {"params", {{"name", "speckit.plan"}, {"arguments", {{"spec_directory", dir.string()}}},
                      {"_meta", {{"progressToken", "t"}}}}}};
}

fs::path specified_dir() {
  fs::path dir = fs::temp_directory_path() / ("speckit-server-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::FILE* f = std::fopen((dir / "spec.md").c_str(), "w");
  std::fputs("# Feature Specification: X\n\n## Functional Requirements\n\n- FR-001: X.\n", f);
  std::fclose(f);
  return dir;
}

}  // namespace

TEST_CASE("$/cancelRequest answers -32002, and ping is served while a call runs", "[server]") {
  fs::path dir = specified_dir();
  Running agent(std::chrono::milliseconds(300));
  agent.send(plan_call("a", dir));
  Json first = agent.next();
  CHECK(first["method"] == "notifications/progress");
  agent.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}});
  CHECK(agent.next_answer() == Json{{"jsonrpc", "2.0"}, {"result", Json::object()}, {"id", 2}});
  agent.send({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", "a"}}}});
  Json answer = agent.next_answer();
  CHECK(answer["id"] == "a");
  CHECK(answer["error"]["code"] == -32002);
  CHECK_FALSE(fs::exists(dir / "plan.md"));
  fs::remove_all(dir);
}

TEST_CASE("notifications/cancelled stops a call without an answer, shutdown then exit ends with 0", "[server]") {
  fs::path dir = specified_dir();
  Running agent(std::chrono::milliseconds(300));
  agent.send(plan_call(7, dir));
  CHECK(agent.next()["method"] == "notifications/progress");
  agent.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 7}}}});
  agent.send({{"jsonrpc", "2.0"}, {"id", 8}, {"method", "shutdown"}});
  Json answer = agent.next_answer();  // the cancelled call's answer would come first
  CHECK(answer == Json{{"jsonrpc", "2.0"}, {"result", nullptr}, {"id", 8}});
  agent.send({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "tools/list"}});
  CHECK(agent.next_answer()["error"]["code"] == -32600);
  agent.send({{"jsonrpc", "2.0"}, {"method", "exit"}});
  CHECK(agent.exit_status() == 0);
  CHECK_FALSE(fs::exists(dir / "plan.md"));
  fs::remove_all(dir);
}

TEST_CASE("exit without shutdown ends with 1", "[server]") {
  Running agent(std::chrono::milliseconds(0));
  agent.send({{"jsonrpc", "2.0"}, {"method", "exit"}});
  CHECK(agent.exit_status() == 1);
}
