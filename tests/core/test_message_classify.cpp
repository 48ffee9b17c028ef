// protocol::classify and id_key: every JSON value gets a kind and a list of envelope problems,
// and ids of different JSON types never collide.
#include "harness/protocol/message.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using mcpspec::protocol::classify;
using mcpspec::protocol::Classified;
using mcpspec::protocol::id_key;
using mcpspec::protocol::Kind;
using mcpspec::protocol::kind_name;
using nlohmann::json;

namespace {

Classified of(const std::string& text) { return classify(json::parse(text)); }

std::string problems(const Classified& c) {
  std::string s;
  for (const auto& p : c.problems) s += p + "\n";
  return s;
}

bool mentions(const Classified& c, const std::string& part) {
  for (const auto& p : c.problems)
    if (p.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("classify: well-formed requests and notifications", "[core][classify]") {
  auto r = of(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}})");
  CHECK(r.kind == Kind::Request);
  CHECK(r.method == "tools/list");
  REQUIRE(r.id);
  CHECK(*r.id == 7);
  CHECK(r.problems.empty());

  auto s = of(R"({"jsonrpc":"2.0","id":"abc","method":"ping"})");
  CHECK(s.kind == Kind::Request);
  CHECK(*s.id == "abc");
  CHECK(s.problems.empty());

  auto n = of(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  CHECK(n.kind == Kind::Notification);
  CHECK(n.method == "notifications/initialized");
  CHECK_FALSE(n.id);
  CHECK(n.problems.empty());

  // JSON-RPC allows positional params; MCP's own schemas judge them, not the envelope check.
  CHECK(of(R"({"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]})").problems.empty());
  CHECK(mentions(of(R"({"jsonrpc":"2.0","id":1,"method":"m","params":"text"})"), "\"params\" is not an object"));
  CHECK(mentions(of(R"({"jsonrpc":"2.0","method":"m","params":3})"), "\"params\""));
}

TEST_CASE("classify: results and errors", "[core][classify]") {
  auto r = of(R"({"jsonrpc":"2.0","id":1,"result":{}})");
  CHECK(r.kind == Kind::Result);
  CHECK(r.method.empty());
  CHECK(r.problems.empty());

  auto e = of(R"({"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no"}})");
  CHECK(e.kind == Kind::Error);
  CHECK(*e.id == "x");
  CHECK(e.problems.empty());

  // An error to unreadable input carries a null id; that is allowed for responses.
  auto null_id = of(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}})");
  CHECK(null_id.kind == Kind::Error);
  REQUIRE(null_id.id);
  CHECK(null_id.id->is_null());
  CHECK(null_id.problems.empty());

  // A malformed error object.
  CHECK(mentions(of(R"({"jsonrpc":"2.0","id":1,"error":{"code":"-32601","message":"x"}})"), "integer \"code\""));
  CHECK(mentions(of(R"({"jsonrpc":"2.0","id":1,"error":{"code":-1}})"), "string \"message\""));
  CHECK(mentions(of(R"({"jsonrpc":"2.0","id":1,"error":"boom"})"), "\"error\" needs"));
  CHECK(mentions(of(R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}})"), "integer \"code\""));

  // A result without any id answers nothing.
  auto no_id = of(R"({"jsonrpc":"2.0","result":{}})");
  CHECK(no_id.kind == Kind::Result);
  CHECK(mentions(no_id, "response has no \"id\""));
}

TEST_CASE("classify: a response with both result and error", "[core][classify]") {
  auto c = of(R"({"jsonrpc":"2.0","id":3,"result":{},"error":{"code":-1,"message":"m"}})");
  CHECK(c.kind == Kind::Result);
  INFO(problems(c));
  CHECK(mentions(c, "both \"result\" and \"error\""));
  // A request carrying a result is still a request, with the problem noted.
  auto q = of(R"({"jsonrpc":"2.0","id":3,"method":"ping","result":{}})");
  CHECK(q.kind == Kind::Request);
  CHECK(mentions(q, "carries result/error"));
}

TEST_CASE("classify: missing or wrong jsonrpc member", "[core][classify]") {
  auto missing = of(R"({"id":1,"method":"ping"})");
  CHECK(missing.kind == Kind::Request);
  CHECK(mentions(missing, "missing \"jsonrpc\": \"2.0\""));

  auto wrong = of(R"({"jsonrpc":"1.0","id":1,"result":{}})");
  CHECK(wrong.kind == Kind::Result);
  CHECK(mentions(wrong, "\"jsonrpc\" is \"1.0\", not \"2.0\""));

  CHECK(mentions(of(R"({"jsonrpc":2.0,"id":1,"result":{}})"), "\"jsonrpc\" is 2.0"));
  CHECK(mentions(of(R"({"jsonrpc":null,"method":"x"})"), "\"jsonrpc\" is null"));
}

TEST_CASE("classify: id types", "[core][classify]") {
  // Requests: string or integer only (MCP forbids null, JSON-RPC discourages fractions).
  for (const char* bad : {"null", "1.5", "true", "{}", "[]", "[1]"}) {
    auto c = of(std::string(R"({"jsonrpc":"2.0","method":"ping","id":)") + bad + "}");
    INFO(bad);
    CHECK(c.kind == Kind::Request);
    CHECK(mentions(c, "request id is"));
  }
  for (const char* good : {"0", "-5", "18446744073709551615", "\"\"", "\"1\""}) {
    auto c = of(std::string(R"({"jsonrpc":"2.0","method":"ping","id":)") + good + "}");
    INFO(good);
    CHECK(c.problems.empty());
  }
  // Responses: null is also allowed; other types are not.
  for (const char* bad : {"1.5", "false", "{\"a\":1}", "[1]"}) {
    auto c = of(std::string(R"({"jsonrpc":"2.0","result":{},"id":)") + bad + "}");
    INFO(bad);
    CHECK(c.kind == Kind::Result);
    CHECK(mentions(c, "response id is"));
  }
  auto e = of(R"({"jsonrpc":"2.0","error":{"code":1,"message":"m"},"id":true})");
  CHECK(e.kind == Kind::Error);
  CHECK(mentions(e, "response id is boolean"));
}

TEST_CASE("classify: batches and non-objects", "[core][classify]") {
  auto b = of(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}])");
  CHECK(b.kind == Kind::Batch);
  CHECK(b.problems.empty());
  auto empty = of("[]");
  CHECK(empty.kind == Kind::Batch);
  CHECK(mentions(empty, "empty batch"));

  for (const char* v : {"42", "\"text\"", "null", "true", "1.5"}) {
    auto c = of(v);
    INFO(v);
    CHECK(c.kind == Kind::Invalid);
    CHECK(mentions(c, "not an object"));
  }
  auto obj = of(R"({"jsonrpc":"2.0","id":1})");
  CHECK(obj.kind == Kind::Invalid);
  CHECK(mentions(obj, "neither a request"));
  auto m = of(R"({"jsonrpc":"2.0","id":1,"method":5})");
  CHECK(m.kind == Kind::Invalid);
  CHECK(mentions(m, "\"method\" is not a string"));
  CHECK(of("{}").kind == Kind::Invalid);
}

TEST_CASE("classify: kind names", "[core][classify]") {
  CHECK(std::string(kind_name(Kind::Request)) == "request");
  CHECK(std::string(kind_name(Kind::Notification)) == "notification");
  CHECK(std::string(kind_name(Kind::Result)) == "result");
  CHECK(std::string(kind_name(Kind::Error)) == "error");
  CHECK(std::string(kind_name(Kind::Batch)) == "batch");
  CHECK(std::string(kind_name(Kind::Invalid)) == "invalid");
}

TEST_CASE("id_key: ids of different types never collide", "[core][classify]") {
  CHECK(id_key(json(1)) != id_key(json("1")));
  CHECK(id_key(json(1)) == id_key(json::parse("1")));
  CHECK(id_key(json(1u)) == id_key(json(1)));  // unsigned and signed integers are the same id
  CHECK(id_key(json("1")) == "s:1");
  CHECK(id_key(json(1)) == "i:1");
  CHECK(id_key(json(nullptr)) == "n:null");
  CHECK(id_key(json("null")) != id_key(json(nullptr)));
  CHECK(id_key(json(1.0)) != id_key(json(1)));
  std::set<std::string> keys;
  for (const auto& v : {json(0), json("0"), json(nullptr), json("n:null"), json(0.5), json(false), json("i:0"),
                        json::array(), json::object(), json("")})
    keys.insert(id_key(v));
  CHECK(keys.size() == 10);
}
