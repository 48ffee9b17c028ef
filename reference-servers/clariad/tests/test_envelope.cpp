// Envelope rules: what makes a line a request, a notification, a reply or an error.
#include <catch2/catch.hpp>
#include <string>

#include "json_depth.hpp"
#include "jsonrpc_envelope.hpp"

using namespace clariad;

namespace {

Rejection rejected(std::string_view line) {
  Envelope e = read_envelope(line, 64);
  REQUIRE(std::holds_alternative<Rejection>(e));
  return std::get<Rejection>(e);
}

Message accepted(std::string_view line) {
  Envelope e = read_envelope(line, 64);
  REQUIRE(std::holds_alternative<Message>(e));
  return std::get<Message>(e);
}

}  // namespace

TEST_CASE("blank lines are ignored", "[envelope]") {
  CHECK(std::holds_alternative<BlankLine>(read_envelope("", 64)));
  CHECK(std::holds_alternative<BlankLine>(read_envelope("  \t\r", 64)));
}

TEST_CASE("non-JSON is a parse error with id null and a located detail", "[envelope]") {
  const Rejection r = rejected("{\"jsonrpc\": \"2.0\", \"id\": 1, ");
  CHECK(r.error.code() == ErrorCode::ParseError);
  CHECK(r.id.is_null());
  CHECK_THAT(r.error.detail(), Catch::Contains("column"));
  CHECK(rejected("hello").error.code() == ErrorCode::ParseError);
  CHECK(rejected("\xff\xfe{}").error.code() == ErrorCode::ParseError);
  // A number no double can hold is unreadable input too, not an internal error.
  const Rejection overflow = rejected(R"({"jsonrpc":"2.0","id":1,"method":"x","params":{"d":1e400}})");
  CHECK(overflow.error.code() == ErrorCode::ParseError);
  CHECK_THAT(overflow.error.detail(), Catch::Contains("1e400"));
}

TEST_CASE("batches and scalars are invalid requests", "[envelope]") {
  CHECK(rejected("[]").error.code() == ErrorCode::InvalidRequest);
  CHECK(rejected("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list_tools\"}]").error.code() == ErrorCode::InvalidRequest);
  CHECK(rejected("42").error.code() == ErrorCode::InvalidRequest);
  CHECK(rejected("\"text\"").error.code() == ErrorCode::InvalidRequest);
}

TEST_CASE("jsonrpc member must be exactly \"2.0\", the id is echoed when readable", "[envelope]") {
  Rejection r = rejected(R"({"id": "a", "method": "list_tools"})");
  CHECK(r.error.code() == ErrorCode::InvalidRequest);
  CHECK(r.id == "a");
  CHECK(r.error.pointer() == "/jsonrpc");
  r = rejected(R"({"jsonrpc": "1.0", "id": 5, "method": "list_tools"})");
  CHECK(r.error.code() == ErrorCode::InvalidRequest);
  CHECK(r.id == 5);
  CHECK(rejected(R"({"jsonrpc": 2.0, "id": 5, "method": "x"})").error.code() == ErrorCode::InvalidRequest);
}

TEST_CASE("ids must be strings or integers", "[envelope]") {
  for (const char* line : {R"({"jsonrpc":"2.0","id":null,"method":"list_tools"})",
                           R"({"jsonrpc":"2.0","id":true,"method":"list_tools"})",
                           R"({"jsonrpc":"2.0","id":{"a":1},"method":"list_tools"})",
                           R"({"jsonrpc":"2.0","id":[1],"method":"list_tools"})"}) {
    const Rejection r = rejected(line);
    CHECK(r.error.code() == ErrorCode::InvalidRequest);
    CHECK(r.id.is_null());
    CHECK(r.error.pointer() == "/id");
  }
  const Rejection huge = rejected(R"({"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"})");
  CHECK(huge.error.code() == ErrorCode::InvalidRequest);
  CHECK(huge.error.pointer() == "/id");
  CHECK(accepted(R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"})").id == 18446744073709551615ULL);
  // Fractions are not ids (JSON-RPC/MCP: string or integer): refused with id null, never echoed.
  for (const char* line : {R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", R"({"jsonrpc":"2.0","id":-0.5,"method":"ping"})",
                           R"({"jsonrpc":"2.0","id":3.0,"method":"ping"})", R"({"jsonrpc":"2.0","id":1e3,"method":"ping"})"}) {
    const Rejection r = rejected(line);
    CHECK(r.error.code() == ErrorCode::InvalidRequest);
    CHECK(r.id.is_null());
    CHECK(r.error.pointer() == "/id");
  }
  CHECK(accepted(R"({"jsonrpc":"2.0","id":-3,"method":"ping"})").id == -3);
  CHECK(accepted(R"({"jsonrpc":"2.0","id":"tools-1","method":"list_tools"})").id == "tools-1");
  CHECK(accepted(R"({"jsonrpc":"2.0","id":7,"method":"list_tools"})").id == 7);
}

TEST_CASE("method must be present and a string, params structured", "[envelope]") {
  CHECK(rejected(R"({"jsonrpc":"2.0","id":1})").error.pointer() == "/method");
  CHECK(rejected(R"({"jsonrpc":"2.0","id":1,"method":5})").error.code() == ErrorCode::InvalidRequest);
  const Rejection r = rejected(R"({"jsonrpc":"2.0","id":1,"method":"invoke_tool","params":"x"})");
  CHECK(r.error.code() == ErrorCode::InvalidRequest);
  CHECK(r.error.pointer() == "/params");
  CHECK(accepted(R"({"jsonrpc":"2.0","id":1,"method":"list_tools","params":null})").params.is_null());
  CHECK(accepted(R"({"jsonrpc":"2.0","id":1,"method":"x","params":[1]})").params.is_array());
}

TEST_CASE("messages are classified as request, notification or reply", "[envelope]") {
  CHECK(accepted(R"({"jsonrpc":"2.0","id":1,"method":"ping"})").kind == Message::Kind::Request);
  CHECK(accepted(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").kind == Message::Kind::Notification);
  CHECK(accepted(R"({"jsonrpc":"2.0","id":1,"result":{}})").kind == Message::Kind::Reply);
  CHECK(accepted(R"({"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}})").kind == Message::Kind::Reply);
}

TEST_CASE("nesting deeper than the limit is refused before parsing", "[envelope]") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const Rejection r = rejected(deep);
  CHECK(r.error.code() == ErrorCode::InvalidRequest);
  CHECK_THAT(r.error.detail(), Catch::Contains("64"));

  // Brackets inside strings do not count.
  const std::string in_string = R"({"jsonrpc":"2.0","id":1,"method":"x","params":{"s":")" + std::string(500, '[') + "\"}}";
  CHECK(std::holds_alternative<Message>(read_envelope(in_string, 64)));
  CHECK_FALSE(nesting_exceeds(R"({"a":"\"[[[["})", 2));
  CHECK(nesting_exceeds("[[[", 2));
  CHECK_FALSE(nesting_exceeds("[[]]", 2));
}

TEST_CASE("ids are told apart by type", "[envelope]") {
  CHECK(id_key(Json("7")) != id_key(Json(7)));
  CHECK(id_key(Json("a")) == id_key(Json("a")));
}
