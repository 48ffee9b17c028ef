// The built-in schema registry: envelopes per version, definition selection, issue quality,
// method tables, thread safety and speed.
#include "harness/protocol/schema_registry.hpp"
#include "tests/protocol/outcome_text.hpp"
#include "tests/protocol/schema_corpus.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <ctime>
#include <iostream>
#include <regex>
#include <thread>

namespace {

using mcpspec::protocol::Sender;
using mcpspec::protocol::SchemaRegistry;
using mcpspec::protocol::ValidationOutcome;
using nlohmann::json;
using mcpspec::test::dump;
using mcpspec::test::has_issue;

// The initialize-based ("legacy") versions, whose shared rules most tests here check.
// 2026-07-28 (stateless) has its own tests: test_schema_2026.cpp.
const std::vector<std::string> kVersions = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};

const SchemaRegistry& reg() { return SchemaRegistry::builtin(); }

ValidationOutcome check(const char* text, const std::string& version, Sender sender = Sender::Client,
                        std::string_view answered = {}) {
  return reg().validate(json::parse(text), version, sender, answered);
}

}  // namespace

TEST_CASE("the built-in registry holds the five protocol versions", "[schema]") {
  auto all = kVersions;
  all.push_back("2026-07-28");
  CHECK(reg().versions() == all);
  for (const auto& v : all) CHECK(reg().has_version(v));
  CHECK_FALSE(reg().has_version("2023-01-01"));
  CHECK(&SchemaRegistry::builtin() == &reg());
  for (const auto& v : all) {
    // Everything a matcher may name by its spec name exists in every version; the handshake's
    // result only where there is a handshake, server/discover's from 2026-07-28.
    for (const char* name : {"Tool", "Resource", "ResourceTemplate", "Prompt", "Implementation", "CallToolResult",
                             "ContentBlock", "TextContent", "ClientCapabilities", "ServerCapabilities",
                             "ClientRequest", "ServerNotification"}) {
      INFO(v << " " << name);
      CHECK(reg().has_definition(v, name));
    }
    CHECK(reg().has_definition(v, "InitializeResult") == (v != "2026-07-28"));
    CHECK(reg().has_definition(v, "DiscoverResult") == (v == "2026-07-28"));
  }
}

TEST_CASE("a well-formed envelope is valid in every version, a broken one is not", "[schema]") {
  for (const auto& v : kVersions) {
    INFO(v);
    CHECK(check(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", v).valid);
    CHECK(check(R"({"jsonrpc":"2.0","id":"a","method":"ping","params":{"_meta":{"progressToken":7}}})", v).valid);
    CHECK(check(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", v).valid);
    CHECK(check(R"({"jsonrpc":"2.0","id":1,"result":{}})", v, Sender::Server).valid);
    CHECK(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}})", v, Sender::Server).valid);

    auto no_jsonrpc = check(R"({"id":1,"method":"ping"})", v);
    CHECK_FALSE(no_jsonrpc.valid);
    CHECK(has_issue(no_jsonrpc, "", "missing required member 'jsonrpc'"));
    auto wrong_jsonrpc = check(R"({"jsonrpc":"1.0","id":1,"method":"ping"})", v);
    CHECK_FALSE(wrong_jsonrpc.valid);
    CHECK(has_issue(wrong_jsonrpc, "/jsonrpc", "\"1.0\""));
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":true,"method":"ping"})", v).valid);
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})", v).valid);
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"method":7})", v).valid);
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}})", v).valid);
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}})", v).valid);
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"result":[]})", v).valid);
    auto not_object = check(R"("hello")", v);
    CHECK_FALSE(not_object.valid);
    CHECK(has_issue(not_object, "", "must be an object"));
    auto nothing = check(R"({"jsonrpc":"2.0","id":1})", v);
    CHECK_FALSE(nothing.valid);
    CHECK(has_issue(nothing, "", "none of method, result and error"));
  }
}

TEST_CASE("ids: never null on requests, null accepted on error responses, in every version", "[schema]") {
  for (const auto& v : kVersions) {
    INFO(v);
    auto request = check(R"({"jsonrpc":"2.0","id":null,"method":"ping"})", v);
    CHECK_FALSE(request.valid);
    CHECK(has_issue(request, "/id", "wrong type"));
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":null,"result":{}})", v, Sender::Server).valid);
    CHECK(check(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})", v, Sender::Server).valid);
    // Notifications never carry an id, not even for a method we do not know.
    auto notification_with_id = check(R"({"jsonrpc":"2.0","id":3,"method":"notifications/initialized"})", v);
    CHECK_FALSE(notification_with_id.valid);
    CHECK(has_issue(notification_with_id, "/id", "must not carry an id"));
  }
  // Leaving the id out of an error response is allowed from 2025-11-25 only.
  const char* no_id = R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}})";
  CHECK_FALSE(check(no_id, "2024-11-05", Sender::Server).valid);
  CHECK_FALSE(check(no_id, "2025-06-18", Sender::Server).valid);
  CHECK(check(no_id, "2025-11-25", Sender::Server).valid);
}

TEST_CASE("result and error exclude each other, and message kinds do not mix", "[schema]") {
  for (const auto& v : kVersions) {
    INFO(v);
    auto both = check(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}})", v, Sender::Server);
    CHECK_FALSE(both.valid);
    CHECK(has_issue(both, "", "never both"));
    auto request_with_result = check(R"({"jsonrpc":"2.0","id":1,"method":"ping","result":{}})", v);
    CHECK_FALSE(request_with_result.valid);
    CHECK(has_issue(request_with_result, "/result", "must not be present"));
  }
}

TEST_CASE("batches are accepted in 2025-03-26 only", "[schema]") {
  const char* batch = R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}])";
  CHECK(check(batch, "2025-03-26").valid);
  for (const char* v : {"2024-11-05", "2025-06-18", "2025-11-25"}) {
    INFO(v);
    auto o = check(batch, v);
    CHECK_FALSE(o.valid);
    CHECK(has_issue(o, "", "batch"));
  }
  const char* responses = R"([{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}])";
  CHECK(check(responses, "2025-03-26", Sender::Server).valid);
  auto empty = check("[]", "2025-03-26");
  CHECK_FALSE(empty.valid);
  CHECK(has_issue(empty, "", "at least one message"));
  auto mixed = check(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"result":{}}])", "2025-03-26");
  CHECK_FALSE(mixed.valid);
  CHECK(has_issue(mixed, "", "never both"));
  auto not_objects = check(R"([1, "x"])", "2025-03-26");
  CHECK_FALSE(not_objects.valid);
  CHECK(has_issue(not_objects, "/1", "must be an object"));
  auto with_init = check(
      R"([{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}])",
      "2025-03-26");
  CHECK_FALSE(with_init.valid);
  CHECK(has_issue(with_init, "/0/method", "initialize must not be part of a batch"));
  // Elements are checked with their method's own definition, pointers lead into the array.
  auto bad_element = check(R"([{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}])", "2025-03-26");
  CHECK_FALSE(bad_element.valid);
  CHECK(has_issue(bad_element, "/0/params", "missing required member 'name'"));
}

TEST_CASE("the method in a request or notification selects its params definition", "[schema]") {
  for (const auto& v : kVersions) {
    INFO(v);
    auto ok = check(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"x":1}}})", v);
    CHECK(ok.valid);
    CHECK(ok.definition == "CallToolRequest");
    auto missing_params = check(R"({"jsonrpc":"2.0","id":2,"method":"tools/call"})", v);
    CHECK_FALSE(missing_params.valid);
    CHECK(has_issue(missing_params, "", "missing required member 'params'"));
    auto bad_name = check(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}})", v);
    CHECK_FALSE(bad_name.valid);
    CHECK(has_issue(bad_name, "/params/name", "wrong type (found integer)"));
    auto bad_level = check(R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"loud"}})", v);
    CHECK_FALSE(bad_level.valid);
    CHECK(has_issue(bad_level, "/params/level", "not one of the allowed values"));
    auto progress = check(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t"}})", v,
                          Sender::Server);
    CHECK_FALSE(progress.valid);
    CHECK(has_issue(progress, "/params", "missing required member 'progress'"));
  }
}

TEST_CASE("an unknown method is valid at schema level if its envelope is", "[schema]") {
  for (const auto& v : kVersions) {
    INFO(v);
    auto o = check(R"({"jsonrpc":"2.0","id":9,"method":"vendor/frobnicate","params":{"anything":[1,2]}})", v);
    CHECK(o.valid);
    CHECK(o.definition == "RpcRequest");
    CHECK(check(R"({"jsonrpc":"2.0","method":"notifications/vendor/thing"})", v, Sender::Server).valid);
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":9,"method":"vendor/frobnicate","params":"x"})", v).valid);
    // _meta is an object wherever it appears.
    CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":9,"method":"vendor/frobnicate","params":{"_meta":"x"}})", v).valid);
  }
}

TEST_CASE("a known method sent by the wrong party, or in the wrong form, is reported", "[schema]") {
  auto wrong_side = check(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", "2025-06-18", Sender::Server);
  CHECK_FALSE(wrong_side.valid);
  CHECK(has_issue(wrong_side, "/method", "sent by the client, not by the server"));
  CHECK(check(R"({"jsonrpc":"2.0","id":1,"method":"roots/list"})", "2025-06-18", Sender::Server).valid);
  CHECK_FALSE(check(R"({"jsonrpc":"2.0","id":1,"method":"roots/list"})", "2025-06-18", Sender::Client).valid);
  // ping goes both ways.
  CHECK(check(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", "2025-06-18", Sender::Server).valid);
  auto no_id = check(R"({"jsonrpc":"2.0","method":"resources/list"})", "2025-06-18");
  CHECK_FALSE(no_id.valid);
  CHECK(has_issue(no_id, "", "is a request, so it needs an id"));
  // A response cannot come from the side that sends the request.
  auto wrong_responder = check(R"({"jsonrpc":"2.0","id":1,"result":{"tools":[]}})", "2025-06-18", Sender::Client, "tools/list");
  CHECK_FALSE(wrong_responder.valid);
}

TEST_CASE("a response is checked against the result of the method it answers", "[schema]") {
  for (const auto& v : kVersions) {
    INFO(v);
    auto no_content = check(R"({"jsonrpc":"2.0","id":2,"result":{"isError":false}})", v, Sender::Server, "tools/call");
    CHECK_FALSE(no_content.valid);
    CHECK(no_content.definition == "CallToolResult");
    CHECK(has_issue(no_content, "/result", "missing required member 'content'"));
    auto ok = check(R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}})", v, Sender::Server,
                    "tools/call");
    CHECK(ok.valid);
    // Without the answered method only the envelope and the generic result are checked.
    CHECK(check(R"({"jsonrpc":"2.0","id":2,"result":{"isError":false}})", v, Sender::Server).valid);
    CHECK(check(R"({"jsonrpc":"2.0","id":2,"result":{"isError":false}})", v, Sender::Server, "vendor/x").valid);
    auto bad_block = check(R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text"},{"type":"video"}]}})", v,
                           Sender::Server, "tools/call");
    CHECK_FALSE(bad_block.valid);
    INFO(dump(bad_block));
    CHECK(has_issue(bad_block, "/result/content/0", "missing required member 'text'"));
    CHECK(has_issue(bad_block, "/result/content/1/type", "not one of the allowed values"));
    // Most specific first: the deepest pointer leads.
    CHECK(bad_block.issues.front().pointer.size() >= bad_block.issues.back().pointer.size());
    auto init = check(R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"x","capabilities":{}}})", v,
                      Sender::Server, "initialize");
    CHECK_FALSE(init.valid);
    CHECK(has_issue(init, "/result", "missing required member 'serverInfo'"));
    CHECK(check(R"({"jsonrpc":"2.0","id":1,"result":{}})", v, Sender::Server, "ping").valid);
    auto many = R"({"jsonrpc":"2.0","id":1,"result":{"completion":{"values":[)" + std::string(R"("a",)") + "\"b\"]}}}";
    CHECK(check(many.c_str(), v, Sender::Server, "completion/complete").valid);
  }
}

TEST_CASE("version-specific facts show up in the verdicts", "[schema]") {
  const char* audio = R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"audio","data":"AAA=","mimeType":"audio/wav"}]}})";
  CHECK_FALSE(check(audio, "2024-11-05", Sender::Server, "tools/call").valid);
  CHECK(check(audio, "2025-03-26", Sender::Server, "tools/call").valid);
  const char* link = R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"resource_link","uri":"file:///a","name":"a"}]}})";
  CHECK_FALSE(check(link, "2025-03-26", Sender::Server, "tools/call").valid);
  CHECK(check(link, "2025-06-18", Sender::Server, "tools/call").valid);
  CHECK_FALSE(reg().method("2025-03-26", "elicitation/create").has_value());
  CHECK(reg().method("2025-06-18", "elicitation/create").has_value());
  CHECK_FALSE(reg().method("2025-06-18", "tasks/get").has_value());
  // A tool call run as a task is answered with the task (2025-11-25).
  const char* task = R"({"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t1","status":"working",
      "createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null}}})";
  auto as_task = check(task, "2025-11-25", Sender::Server, "tools/call");
  CHECK(as_task.valid);
  CHECK(as_task.definition == "CreateTaskResult");
  CHECK_FALSE(check(task, "2025-06-18", Sender::Server, "tools/call").valid);
  // URL_ELICITATION_REQUIRED must list the elicitations (2025-11-25 only).
  const char* url_error = R"({"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"m"}})";
  CHECK_FALSE(check(url_error, "2025-11-25", Sender::Server).valid);
  CHECK(check(url_error, "2025-06-18", Sender::Server).valid);
  CHECK(check(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"m","data":{"elicitations":[
      {"mode":"url","elicitationId":"e","url":"https://x","message":"go"}]}}})", "2025-11-25", Sender::Server).valid);
  // Completion values are capped at 100 by the spec.
  std::string hundred_and_one = R"({"jsonrpc":"2.0","id":1,"result":{"completion":{"values":[)";
  for (int i = 0; i < 101; ++i) hundred_and_one += (i ? ",\"v" : "\"v") + std::to_string(i) + "\"";
  hundred_and_one += "]}}}";
  CHECK_FALSE(check(hundred_and_one.c_str(), "2025-06-18", Sender::Server, "completion/complete").valid);
}

TEST_CASE("methods.json: direction, kind, definitions and capabilities", "[schema]") {
  auto call = reg().method("2025-06-18", "tools/call");
  REQUIRE(call);
  CHECK(call->from == "client");
  CHECK(call->kind == "request");
  CHECK(call->params == "CallToolParams");
  CHECK(call->result == "CallToolResult");
  CHECK(call->capability == "server:tools");
  auto sampling = reg().method("2025-11-25", "sampling/createMessage");
  REQUIRE(sampling);
  CHECK(sampling->from == "server");
  CHECK(sampling->capability == "client:sampling");
  auto ping = reg().method("2024-11-05", "ping");
  REQUIRE(ping);
  CHECK(ping->from == "both");
  CHECK(ping->capability.empty());
  CHECK(reg().method("2024-11-05", "completion/complete")->capability.empty());
  CHECK(reg().method("2025-03-26", "completion/complete")->capability == "server:completions");
  CHECK(reg().method("2025-11-25", "tasks/list")->capability == "receiver:tasks.list");
  auto progress = reg().method("2025-11-25", "notifications/progress");
  REQUIRE(progress);
  CHECK(progress->kind == "notification");
  CHECK(progress->result.empty());
  CHECK_FALSE(reg().method("2025-11-25", "vendor/x"));
  CHECK_FALSE(reg().method("1999-01-01", "ping"));
  for (const auto& v : kVersions) {
    for (const auto& m : reg().methods(v)) {
      INFO(v << " " << m.name);
      CHECK((m.from == "client" || m.from == "server" || m.from == "both"));
      CHECK((m.kind == "request" || m.kind == "notification"));
      CHECK(reg().has_definition(v, m.params));
      CHECK((m.kind == "notification") == m.result.empty());
      if (!m.result.empty()) CHECK(reg().has_definition(v, m.result));
    }
  }
}

// METHODS_BY_VERSION.md lists, per method, in which versions it exists and who sends it.
TEST_CASE("the method tables agree with METHODS_BY_VERSION.md", "[schema]") {
  std::istringstream md(mcpspec::test::read_text(mcpspec::test::shared_dir() + "/mcp-spec/METHODS_BY_VERSION.md"));
  std::regex row(R"(^\| `([^`]+)` \| (\S+) \| (\S+) \| (\S+) \| (\S+) \| (\S+) \|$)");
  std::string line;
  std::size_t rows = 0;
  std::map<std::string, std::size_t> per_version;
  while (std::getline(md, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    ++rows;
    const std::string method = m[1];
    const std::string direction = m[6];
    for (std::size_t i = 0; i < kVersions.size(); ++i) {
      INFO(method << " " << kVersions[i]);
      auto info = reg().method(kVersions[i], method);
      const bool listed = m[2 + i] == "yes";
      CHECK(info.has_value() == listed);
      if (!info || !listed) continue;
      ++per_version[kVersions[i]];
      const bool client = direction.find("Client") != std::string::npos;
      const bool server = direction.find("Server") != std::string::npos;
      CHECK(info->from == (client && server ? "both" : client ? "client" : "server"));
      CHECK(info->kind == (direction.find("Request") != std::string::npos ? "request" : "notification"));
    }
  }
  CHECK(rows == 31);
  for (const auto& v : kVersions) CHECK(reg().methods(v).size() == per_version[v]);
}

TEST_CASE("validate_definition checks a value against a named definition", "[schema]") {
  const std::string v = "2025-06-18";
  CHECK(reg().validate_definition(json::parse(R"({"name":"t","inputSchema":{"type":"object"}})"), v, "Tool").valid);
  auto bad = reg().validate_definition(json::parse(R"({"name":"t","inputSchema":{"type":"array"}})"), v, "Tool");
  CHECK_FALSE(bad.valid);
  CHECK(bad.definition == "Tool");
  CHECK(has_issue(bad, "/inputSchema/type", "\"array\""));
  auto unknown = reg().validate_definition(json::object(), v, "NoSuchThing");
  CHECK_FALSE(unknown.valid);
  CHECK(has_issue(unknown, "", "no definition named 'NoSuchThing'"));
  auto bad_version = reg().validate_definition(json::object(), "2020-01-01", "Tool");
  CHECK_FALSE(bad_version.valid);
  CHECK(has_issue(bad_version, "", "unknown protocol version '2020-01-01'"));
  auto bad_version_message = reg().validate(json::object(), "2020-01-01", Sender::Client);
  CHECK_FALSE(bad_version_message.valid);
  CHECK(has_issue(bad_version_message, "", "known: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"));
}

TEST_CASE("hostile input neither crashes nor hangs the validator", "[schema]") {
  // Long strings (no `pattern` or regex formats on unbounded strings in our schemas).
  std::string big(2'000'000, '9');
  json msg = {{"jsonrpc", "2.0"}, {"id", big}, {"method", "tools/call"}, {"params", {{"name", big}, {"arguments", {{"x", big}}}}}};
  for (const auto& v : kVersions) CHECK(reg().validate(msg, v, Sender::Client).valid);
  json created = {{"taskId", big}, {"status", "working"}, {"createdAt", big}, {"lastUpdatedAt", big}, {"ttl", 1}};
  CHECK(reg().validate_definition(created, "2025-11-25", "Task").valid);
  // Deep nesting inside free-form members.
  json deep = json::parse(std::string(5000, '[') + std::string(5000, ']'));
  json nested = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", {{"name", "x"}, {"arguments", {{"d", deep}}}}}};
  CHECK(reg().validate(nested, "2025-06-18", Sender::Client).valid);
  // Many issues at once: the check reports the first few, as every schema check does (check.hpp).
  json wide = json::array();
  for (int i = 0; i < 2000; ++i) wide.push_back({{"type", "text"}});
  json response = {{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"content", wide}}}};
  auto o = reg().validate(response, "2025-06-18", Sender::Server, "tools/call");
  CHECK_FALSE(o.valid);
  CHECK(o.issues.size() == 8);
  CHECK(o.issues.front().pointer.rfind("/result/content/", 0) == 0);
}

TEST_CASE("validation is safe from many threads at once", "[schema]") {
  auto examples = mcpspec::test::example_items(reg(), "2025-11-25");
  std::vector<bool> expected;
  for (const auto& e : examples) expected.push_back(reg().validate(e.message, "2025-11-25", e.sender, e.answered).valid);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        for (std::size_t i = 0; i < examples.size(); ++i) {
          const auto& e = examples[i];
          if (reg().validate(e.message, "2025-11-25", e.sender, e.answered).valid != expected[i]) ++mismatches;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(mismatches == 0);
}

TEST_CASE("validation is fast enough for the fuzzer", "[schema][speed]") {
  std::vector<mcpspec::test::CorpusItem> corpus;
  for (const auto& v : kVersions) {
    for (auto& e : mcpspec::test::example_items(reg(), v)) corpus.push_back(std::move(e));
  }
  REQUIRE(corpus.size() > 200);
  std::size_t valid = 0, count = 0;
  // CPU time, not wall time: the build machine is shared, and a busy neighbour must not fail this.
  const std::clock_t cpu_start = std::clock();
  const auto wall_start = std::chrono::steady_clock::now();
  double cpu = 0;
  while (cpu < 1.0) {
    for (const auto& e : corpus) valid += reg().validate(e.message, e.version, e.sender, e.answered).valid ? 1 : 0;
    count += corpus.size();
    cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double rate = count / cpu;
  std::cout << "schema validation: " << static_cast<long>(rate) << " messages per CPU-second ("
            << static_cast<long>(count / wall) << " per wall-second) over the spec examples, " << corpus.size()
            << " messages of 4 versions, single thread\n";
  CHECK(valid > 0);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
  // Optimised builds only. The examples include large results (tool lists, initialize); small
  // messages (pings, errors, short calls) run 2-3x faster than this average.
  CHECK(rate > 50000);
#endif
}
