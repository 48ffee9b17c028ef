// Hostile input: every tool parameter given every wrong JSON type, and a stream of garbage
// lines into `chant mcp`. Nothing may crash, hang or turn into an internal error.
#include "process_runner.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace chant_test;

TEST_CASE("every tool parameter with every JSON type gives a result, never an exception",
          "[chant][robustness]") {
  Project p;
  p.add_spec("r-1", "Target", "in_progress", "\n- [ ] open\n");
  write_text(p.paths().logs / "r-1.log", "x\n");
  const std::vector<Json> values = {
      nullptr, true, false, 0, -1, 1.5, 1e300, 18446744073709551615ull, "", "r-1", "../../x",
      std::string(300, 'a'), std::string("\0", 1), Json::array(), Json::array({"r-1"}),
      Json::object(), Json{{"id", "r-1"}}};
  std::size_t calls = 0, errors = 0;
  for (const auto& tool : chant::tool_catalog()) {
    Json schema = tool.input_schema();
    for (auto& [param, _] : schema["properties"].items()) {
      for (const auto& v : values) {
        Json args = Json{{"id", "r-1"}, {"query", "t"}, {"description", "d"}};
        args[param] = v;
        INFO(tool.name << " " << param << "=" << v.dump());
        Json r;
        REQUIRE_NOTHROW(r = p.call(tool.name, args));
        REQUIRE(r["content"][0]["type"] == "text");
        ++calls;
        if (is_error(r)) ++errors;
      }
    }
  }
  CHECK(calls > 300);
  CHECK(errors > calls / 3);  // most of these inputs are wrong and must be refused
}

TEST_CASE("garbage lines never crash chant mcp", "[chant][robustness][process]") {
  Project p;
  p.add_spec("g-1", "Target", "pending");
  std::mt19937 rng(20260122);
  const std::vector<std::string> seeds = {
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"chant_spec_get","arguments":{"id":"g-1"}}})",
      R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2024-11-05"}})",
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chant_spec_update","arguments":{"id":"g-1","output":"o"}}})",
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
      R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})"};
  std::string input;
  std::size_t lines = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string line = seeds[rng() % seeds.size()];
    int edits = static_cast<int>(rng() % 6);
    for (int e = 0; e < edits && !line.empty(); ++e) {
      std::size_t at = rng() % line.size();
      switch (rng() % 4) {
        case 0: line[at] = static_cast<char>(rng() % 256); break;
        case 1: line.erase(at, 1 + rng() % 8); break;
        case 2: line.insert(at, std::string(1 + rng() % 4, "{}[]\",:\\0\x80\xff"[rng() % 13])); break;
        case 3: line = line.substr(0, at); break;
      }
    }
    // Keep one message per line: stray newlines would only change how many replies come back.
    for (char& c : line) {
      if (c == '\n') c = ' ';
    }
    input += line + "\n";
    ++lines;
  }
  auto r = run_chant({"mcp"}, p.root(), input);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 0);
  auto replies = json_lines(r.out);  // every output line is valid JSON
  CHECK(replies.size() > lines / 2);
  CHECK(replies.size() <= lines);
  for (const auto& reply : replies) {
    REQUIRE(reply["jsonrpc"] == "2.0");
    REQUIRE((reply.contains("result") != reply.contains("error")));
    if (reply.contains("error")) CHECK(reply["error"]["code"] != -32603);
    // Whatever id a mangled line carried, a reply only ever echoes an id MCP allows.
    CHECK((reply["id"].is_null() || reply["id"].is_string() || reply["id"].is_number_integer()));
  }
  // The spec is still readable after whatever updates got through.
  CHECK_FALSE(is_error(p.call("chant_spec_get", Json{{"id", "g-1"}})));
}

TEST_CASE("fractional request ids are invalid requests, answered with id null", "[chant][robustness][process]") {
  Project p;
  const std::string input =
      R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})" "\n"
      R"({"jsonrpc":"2.0","id":2.0,"method":"tools/list"})" "\n"
      R"({"jsonrpc":"2.0","id":-0.25,"method":"ping"})" "\n"
      R"({"jsonrpc":"2.0","id":7,"method":"ping"})" "\n";
  auto r = run_chant({"mcp"}, p.root(), input);
  REQUIRE_FALSE(r.timed_out);
  auto replies = json_lines(r.out);
  REQUIRE(replies.size() == 4);
  for (int i = 0; i < 3; ++i) {
    INFO(replies[i].dump());
    CHECK(replies[i]["id"].is_null());
    CHECK(replies[i]["error"]["code"] == -32600);
  }
  CHECK(replies[3]["id"] == 7);  // an integer id is still echoed
}
