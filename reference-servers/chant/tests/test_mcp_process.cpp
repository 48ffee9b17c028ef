// `chant mcp` as a real process: JSON-RPC lines in, answers out.
#include "process_runner.hpp"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <set>

using namespace chant_test;

namespace {

std::string call_line(int id, const std::string& tool, const Json& args) {
  return mcpref::to_line(Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                              {"params", Json{{"name", tool}, {"arguments", args}}}}) + "\n";
}

}  // namespace

TEST_CASE("chant mcp answers a full session", "[chant][process]") {
  Project p;
  p.add_spec("2026-01-22-001-x7m", "Add user authentication", "in_progress");
  std::string input =
      "invalid json\n"
      R"({"jsonrpc":"2.0","method":"initialize","id":1})" "\n"
      R"({"jsonrpc":"2.0","method":"initialize","id":2,"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})" "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})" "\n"
      "\n"
      R"({"jsonrpc":"2.0","method":"ping","id":"p"})" "\n"
      R"({"jsonrpc":"2.0","method":"tools/list","id":3})" "\n" +
      call_line(4, "chant_spec_get", Json{{"id", "001"}}) +
      R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"chant_spec_get","arguments":{}},"id":5})" "\n"
      R"({"jsonrpc":"2.0","method":"resources/list","id":6})" "\n"
      R"({"jsonrpc":"1.0","method":"ping","id":7})" "\n"
      R"([{"jsonrpc":"2.0","method":"ping","id":8}])" "\n"
      "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":\"\xff\"}\n" +
      std::string(5 * 1024 * 1024, 'x') + "\n" +
      R"({"jsonrpc":"2.0","method":"ping","id":9})";  // no final newline: still answered
  auto r = run_chant({"mcp"}, p.root(), input);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 0);
  auto replies = json_lines(r.out);
  REQUIRE(replies.size() == 13);

  CHECK(replies[0]["error"]["code"] == -32700);
  CHECK(replies[0]["id"].is_null());
  CHECK_THAT(replies[0]["error"]["message"].get<std::string>(), Catch::StartsWith("Parse error"));

  for (int i : {1, 2}) {
    CHECK(replies[i]["id"] == i);
    CHECK(replies[i]["result"]["protocolVersion"] == "2024-11-05");
    CHECK(replies[i]["result"]["capabilities"] == Json{{"tools", Json::object()}});
    CHECK(replies[i]["result"]["serverInfo"] == Json{{"name", "chant"}, {"version", "0.1.0"}});
  }
  CHECK(replies[3]["id"] == "p");
  CHECK(replies[3]["result"] == Json::object());

  auto tools = replies[4]["result"]["tools"];
  REQUIRE(tools.size() == 14);
  std::vector<std::string> names;
  for (auto& t : tools) {
    names.push_back(t["name"]);
    CHECK(t["inputSchema"]["type"] == "object");
    CHECK(t["description"].is_string());
    bool query = t["annotations"]["readOnlyHint"].get<bool>();
    CHECK(query == (names.size() <= 8));
  }
  CHECK(names == std::vector<std::string>{
                     "chant_spec_list", "chant_spec_get", "chant_ready", "chant_status",
                     "chant_log", "chant_search", "chant_diagnose", "chant_verify",
                     "chant_spec_update", "chant_add", "chant_finalize", "chant_resume",
                     "chant_cancel", "chant_archive"});
  CHECK(tools[1]["inputSchema"]["required"] == Json::array({"id"}));

  auto got = Json::parse(replies[5]["result"]["content"][0]["text"].get<std::string>());
  CHECK(got["id"] == "2026-01-22-001-x7m");
  CHECK(replies[6]["result"]["isError"] == true);
  CHECK(replies[6]["result"]["content"][0]["text"] == "Missing required parameter: id");
  CHECK(replies[7]["error"]["code"] == -32601);
  CHECK(replies[7]["id"] == 6);
  CHECK(replies[8]["error"]["code"] == -32600);
  CHECK(replies[8]["error"]["message"] == "Invalid JSON-RPC version");
  CHECK(replies[8]["id"] == 7);
  CHECK(replies[9]["error"]["code"] == -32600);  // batches are not part of 2024-11-05
  CHECK(replies[10]["error"]["code"] == -32700);  // invalid UTF-8
  CHECK(replies[11]["error"]["code"] == -32700);  // 5 MiB line over the 4 MiB cap
  CHECK_THAT(replies[11]["error"]["message"].get<std::string>(), Catch::Contains("4194304"));
  CHECK(replies[12]["id"] == 9);
  CHECK(replies[12]["result"] == Json::object());
  CHECK(r.err.empty());
}

TEST_CASE("chant mcp outside a project reports it per call", "[chant][process]") {
  TempDir nowhere;
  auto r = run_chant({"--project", nowhere.path().string(), "mcp"}, nowhere.path(),
                     call_line(1, "chant_spec_list", Json::object()));
  auto replies = json_lines(r.out);
  REQUIRE(replies.size() == 1);
  CHECK(replies[0]["result"]["isError"] == true);
  CHECK(replies[0]["result"]["content"][0]["text"] == "Chant not initialized. Run `chant init` first.");
}

TEST_CASE("chant mcp finds the project from a subdirectory", "[chant][process]") {
  Project p;
  p.add_spec("sub-1", "Found", "pending");
  fs::create_directories(p.root() / "src" / "deep");
  auto r = run_chant({"mcp"}, p.root() / "src" / "deep", call_line(1, "chant_spec_list", Json::object()));
  auto replies = json_lines(r.out);
  REQUIRE(replies.size() == 1);
  auto list = Json::parse(replies[0]["result"]["content"][0]["text"].get<std::string>());
  CHECK(list["total"] == 1);
}

TEST_CASE("two chant mcp processes updating one spec lose nothing", "[chant][process][concurrency]") {
  Project p;
  p.add_spec("race-1", "Contended", "in_progress");
  constexpr int per_process = 40;
  std::string a, b;
  for (int i = 0; i < per_process; ++i) {
    a += call_line(i, "chant_spec_update", Json{{"id", "race-1"}, {"output", fmt::format("from-a-{}", i)}});
    b += call_line(i, "chant_spec_update", Json{{"id", "race-1"}, {"output", fmt::format("from-b-{}", i)}});
  }
  ChildProcess first({"mcp"}, p.root(), a);
  ChildProcess second({"mcp"}, p.root(), b);
  auto ra = first.wait();
  auto rb = second.wait();
  REQUIRE(ra.exit_code == 0);
  REQUIRE(rb.exit_code == 0);
  for (const auto& reply : json_lines(ra.out)) CHECK_FALSE(reply["result"].contains("isError"));
  for (const auto& reply : json_lines(rb.out)) CHECK_FALSE(reply["result"].contains("isError"));
  std::string text = slurp(p.spec_path("race-1"));
  for (int i = 0; i < per_process; ++i) {
    CHECK(text.find(fmt::format("from-a-{}\n", i)) != std::string::npos);
    CHECK(text.find(fmt::format("from-b-{}\n", i)) != std::string::npos);
  }
}

TEST_CASE("concurrent chant_add calls never share an id", "[chant][process][concurrency]") {
  Project p;
  std::string input;
  for (int i = 0; i < 15; ++i) input += call_line(i, "chant_add", Json{{"description", fmt::format("task {}", i)}});
  ChildProcess one({"mcp"}, p.root(), input), two({"mcp"}, p.root(), input), three({"mcp"}, p.root(), input);
  std::set<std::string> ids;
  for (auto* child : {&one, &two, &three}) {
    auto r = child->wait();
    for (const auto& reply : json_lines(r.out)) {
      std::string text = reply["result"]["content"][0]["text"];
      REQUIRE_THAT(text, Catch::StartsWith("Created spec: "));
      ids.insert(text.substr(14));
    }
  }
  CHECK(ids.size() == 45);
  std::size_t files = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(p.paths().specs)) ++files;
  CHECK(files == 45);
}

TEST_CASE("killing chant mcp mid-update leaves the spec whole", "[chant][process][crash]") {
  Project p;
  p.add_spec("kill-1", "Victim", "in_progress");
  std::string input;
  std::string payload(64 * 1024, 'p');
  for (int i = 0; i < 300; ++i) {
    input += call_line(i, "chant_spec_update", Json{{"id", "kill-1"}, {"output", fmt::format("{}-{}", i, payload)}});
  }
  for (int round = 0; round < 5; ++round) {
    ChildProcess child({"mcp"}, p.root(), input);
    std::this_thread::sleep_for(std::chrono::milliseconds(30 + 40 * round));
    child.kill_now();
    child.wait();
    auto r = p.call("chant_spec_get", Json{{"id", "kill-1"}});
    REQUIRE_FALSE(is_error(r));
    // Either no update landed yet, or the last appended block is complete.
    std::string body = json_of(r)["body"];
    if (body.find("## Output") != std::string::npos) {
      REQUIRE(body.size() > payload.size());
      CHECK(body.substr(body.size() - payload.size() - 1) == payload + "\n");
    }
    CHECK_FALSE(json_of(p.call("chant_spec_list")).contains("errors"));
    // Start the next round from a small file again.
    p.add_spec("kill-1", "Victim", "in_progress");
  }
}
