#include "mcpref/dispatcher.hpp"
#include "mcpref/jsonrpc.hpp"
#include "mcpref/tool_result.hpp"
#include "mcpref/version_negotiation.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using mcpref::Dispatcher;
using mcpref::Json;
namespace rpc = mcpref::rpc;

namespace {

Dispatcher make_dispatcher(int* notified = nullptr) {
  Dispatcher d;
  d.on_request("echo", [](const Json& p) { return p; });
  d.on_request("boom", [](const Json&) -> Json { throw std::runtime_error("disk on fire"); });
  d.on_request("picky", [](const Json&) -> Json {
    throw rpc::RpcError(rpc::kInvalidParams, "bad thing", Json{{"where", "x"}});
  });
  d.on_notification("note", [notified](const Json&) {
    if (notified) ++*notified;
    throw std::runtime_error("ignored");
  });
  return d;
}

Json reply(Dispatcher& d, const std::string& line) {
  auto r = d.handle_line(line);
  REQUIRE(r.has_value());
  return *r;
}

}  // namespace

TEST_CASE("requests are dispatched and answered with the same id", "[common][jsonrpc]") {
  auto d = make_dispatcher();
  auto r = reply(d, R"({"jsonrpc":"2.0","id":"abc","method":"echo","params":{"a":1}})");
  CHECK(r["id"] == "abc");
  CHECK(r["result"]["a"] == 1);
  CHECK(r["jsonrpc"] == "2.0");
  CHECK_FALSE(r.contains("error"));
  // params absent -> handler sees null
  r = reply(d, R"({"jsonrpc":"2.0","id":7,"method":"echo"})");
  CHECK(r["result"].is_null());
  CHECK(r["id"] == 7);
}

TEST_CASE("malformed input gets the right JSON-RPC error", "[common][jsonrpc]") {
  auto d = make_dispatcher();
  auto r = reply(d, "invalid json");
  CHECK(r["error"]["code"] == rpc::kParseError);
  CHECK(r["id"].is_null());
  CHECK_THAT(r["error"]["message"].get<std::string>(),
             Catch::StartsWith("Parse error: ") && Catch::Contains("line 1 column 1"));

  r = reply(d, R"({"jsonrpc":"1.0","id":3,"method":"echo"})");
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);
  CHECK(r["error"]["message"] == "Invalid JSON-RPC version");
  CHECK(r["id"] == 3);

  r = reply(d, R"({"id":3,"method":"echo"})");
  CHECK(r["error"]["message"] == "Invalid JSON-RPC version");

  r = reply(d, R"([1,2])");
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains("batch"));

  r = reply(d, R"(42)");
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);
  CHECK(r["id"].is_null());

  r = reply(d, R"({"jsonrpc":"2.0","id":{"x":1},"method":"echo"})");
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);
  CHECK(r["id"].is_null());

  // Ids are strings or integers: a fraction, or an integer beyond 64 bits (read as a double),
  // makes the request invalid and is never echoed.
  for (const char* line : {R"({"jsonrpc":"2.0","id":1.5,"method":"echo"})", R"({"jsonrpc":"2.0","id":-0.25,"method":"echo"})",
                           R"({"jsonrpc":"2.0","id":2.0,"method":"echo"})",
                           R"({"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"echo"})"}) {
    r = reply(d, line);
    CHECK(r["error"]["code"] == rpc::kInvalidRequest);
    CHECK(r["id"].is_null());
  }
  CHECK(reply(d, R"({"jsonrpc":"2.0","id":-8,"method":"echo"})")["id"] == -8);

  // A number beyond a double is valid syntax but unreadable: a parse error, not an exception.
  r = reply(d, R"({"id":2e966,"j)");
  CHECK(r["error"]["code"] == rpc::kParseError);
  CHECK(r["id"].is_null());
  r = reply(d, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":1e999}})");
  CHECK(r["error"]["code"] == rpc::kParseError);
  CHECK(r["id"].is_null());

  r = reply(d, R"({"jsonrpc":"2.0","id":null,"method":"echo"})");
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);

  r = reply(d, R"({"jsonrpc":"2.0","id":4,"method":17})");
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);
  CHECK(r["id"] == 4);

  r = reply(d, R"({"jsonrpc":"2.0","id":4,"method":"echo","params":"str"})");
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains("params"));

  r = reply(d, R"({"jsonrpc":"2.0","id":5})");
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);
}

TEST_CASE("deeply nested input is refused without parsing", "[common][jsonrpc]") {
  auto d = make_dispatcher();
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto r = reply(d, deep);
  CHECK(r["error"]["code"] == rpc::kInvalidRequest);
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains("nested"));
  CHECK(rpc::nesting_depth(R"({"a":"[[[[","b":[{}]})") == 3);
}

TEST_CASE("unknown methods get -32601 and handler failures their codes", "[common][jsonrpc]") {
  auto d = make_dispatcher();
  auto r = reply(d, R"({"jsonrpc":"2.0","id":1,"method":"nope"})");
  CHECK(r["error"]["code"] == rpc::kMethodNotFound);
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains("nope"));

  r = reply(d, R"({"jsonrpc":"2.0","id":2,"method":"boom"})");
  CHECK(r["error"]["code"] == rpc::kInternalError);
  CHECK(r["error"]["message"] == "disk on fire");
  CHECK_FALSE(r["error"].contains("data"));

  r = reply(d, R"({"jsonrpc":"2.0","id":3,"method":"picky"})");
  CHECK(r["error"]["code"] == rpc::kInvalidParams);
  CHECK(r["error"]["data"]["where"] == "x");
}

TEST_CASE("notifications, responses and blank lines get no reply", "[common][jsonrpc]") {
  int notified = 0;
  auto d = make_dispatcher(&notified);
  CHECK_FALSE(d.handle_line(R"({"jsonrpc":"2.0","method":"note"})").has_value());
  CHECK(notified == 1);  // its exception was contained
  CHECK_FALSE(d.handle_line(R"({"jsonrpc":"2.0","method":"unknown/notification"})").has_value());
  // An empty method name is a name no handler has: ignored as a notification, -32601 as a request.
  CHECK_FALSE(d.handle_line(R"({"jsonrpc":"2.0","method":""})").has_value());
  auto r = d.handle_line(R"({"jsonrpc":"2.0","id":4,"method":""})");
  REQUIRE(r.has_value());
  CHECK((*r)["error"]["code"] == rpc::kMethodNotFound);
  CHECK((*r)["id"] == 4);
  CHECK_FALSE(d.handle_line(R"({"jsonrpc":"2.0","id":9,"result":{}})").has_value());
  CHECK_FALSE(d.handle_line("   \t").has_value());
}

TEST_CASE("batches work only when enabled", "[common][jsonrpc]") {
  auto d = make_dispatcher();
  d.set_batch_support(true);
  auto r = reply(d, R"([{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},
                        {"jsonrpc":"2.0","method":"note"}, 5])");
  REQUIRE(r.is_array());
  REQUIRE(r.size() == 2);
  CHECK(r[0]["id"] == 1);
  CHECK(r[1]["error"]["code"] == rpc::kInvalidRequest);
  CHECK(reply(d, "[]")["error"]["code"] == rpc::kInvalidRequest);
  CHECK_FALSE(d.handle_line(R"([{"jsonrpc":"2.0","method":"note"}])").has_value());
}

TEST_CASE("tool result shapes", "[common][jsonrpc]") {
  auto ok = mcpref::tool_success("hi");
  CHECK(ok["content"][0]["type"] == "text");
  CHECK(ok["content"][0]["text"] == "hi");
  CHECK_FALSE(ok.contains("isError"));
  CHECK(mcpref::tool_failure("no")["isError"] == true);
}

TEST_CASE("protocol version negotiation", "[common][jsonrpc]") {
  std::vector<std::string> supported{"2024-11-05", "2025-03-26"};
  CHECK(mcpref::negotiate_protocol_version(nullptr, supported) == "2024-11-05");
  CHECK(mcpref::negotiate_protocol_version(Json{{"protocolVersion", "2025-03-26"}}, supported) ==
        "2025-03-26");
  CHECK(mcpref::negotiate_protocol_version(Json{{"protocolVersion", "1999-01-01"}}, supported) ==
        "2024-11-05");
  CHECK(mcpref::negotiate_protocol_version(Json{{"protocolVersion", 5}}, supported) ==
        "2024-11-05");
}

TEST_CASE("invalid UTF-8 in outgoing text is replaced, not fatal", "[common][jsonrpc]") {
  Json v = std::string("a\xff" "b");
  CHECK_NOTHROW(mcpref::to_line(v));
  CHECK(mcpref::to_line(v).find("\xEF\xBF\xBD") != std::string::npos);
}
