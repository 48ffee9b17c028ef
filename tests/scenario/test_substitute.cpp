// ${path} substitution: type preservation, text insertion, nested paths, escapes, errors that
// name the path, and $generate inside a message.
#include <catch2/catch.hpp>

#include <string>

#include "harness/scenario/matcher.hpp"
#include "harness/scenario/substitute.hpp"

using nlohmann::json;
using mcpspec::scenario::match;
using mcpspec::scenario::substitute;
using mcpspec::scenario::SubstitutionError;

namespace {

const json kVars = json::parse(R"({
  "version": "2025-06-18",
  "count": 3,
  "ratio": 0.5,
  "flag": true,
  "nothing": null,
  "init": {"capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "srv"}},
  "tools": [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                                             "required": ["text"]}},
            {"name": "add"}],
  "env": {"HOME": "/srv/me"},
  "dotted.key": "unreachable"
})");

json sub(const std::string& text) { return substitute(json::parse(text), kVars); }

std::string error_of(const std::string& text, const json& vars = kVars) {
  try {
    substitute(json::parse(text), vars);
  } catch (const SubstitutionError& e) {
    return e.what();
  }
  FAIL("no SubstitutionError for " << text);
  return "";
}

}  // namespace

TEST_CASE("a whole-string reference keeps the value's JSON type", "[substitute]") {
  CHECK(sub(R"("${count}")") == json(3));
  CHECK(sub(R"("${ratio}")") == json(0.5));
  CHECK(sub(R"("${flag}")") == json(true));
  CHECK(sub(R"("${nothing}")").is_null());
  CHECK(sub(R"("${version}")") == json("2025-06-18"));
  CHECK(sub(R"("${init.capabilities}")") == json::parse(R"({"tools": {"listChanged": true}})"));
  CHECK(sub(R"("${tools.1}")") == json::parse(R"({"name": "add"})"));
}

TEST_CASE("references inside longer strings insert text", "[substitute]") {
  CHECK(sub(R"("v=${version}")") == json("v=2025-06-18"));
  CHECK(sub(R"("${count} items, ${flag}, ${nothing}")") == json("3 items, true, null"));
  CHECK(sub(R"("caps: ${init.capabilities.tools}")") == json(R"(caps: {"listChanged":true})"));
  CHECK(sub(R"("${tools.0.name}-${tools.1.name}")") == json("echo-add"));
  CHECK(sub(R"("${env.HOME}/x")") == json("/srv/me/x"));
}

TEST_CASE("values are walked everywhere, keys are left alone", "[substitute]") {
  json out = sub(R"({"jsonrpc": "2.0", "id": "${count}",
                     "params": {"name": "${tools.0.name}", "list": ["${flag}", 1, null], "${version}": "k"}})");
  CHECK(out["id"] == 3);
  CHECK(out["params"]["name"] == "echo");
  CHECK(out["params"]["list"] == json::parse(R"([true, 1, null])"));
  CHECK(out["params"].contains("${version}"));  // keys untouched
  CHECK(out["params"]["${version}"] == "k");
}

TEST_CASE("matcher operator arguments are substituted, $eq included", "[substitute]") {
  json out = sub(R"({"result": {"protocolVersion": {"$eq": "${version}"},
                                "caps": {"$eq": "${init.capabilities}"},
                                "n": {"$len": "${count}"}, "x": {"$regex": "^${tools.0.name}$"}}})");
  CHECK(out["result"]["protocolVersion"] == json{{"$eq", "2025-06-18"}});
  CHECK(out["result"]["caps"]["$eq"] == json::parse(R"({"tools": {"listChanged": true}})"));
  CHECK(out["result"]["n"] == json{{"$len", 3}});
  CHECK(out["result"]["x"] == json{{"$regex", "^echo$"}});
}

TEST_CASE("$${ stands for a literal ${", "[substitute]") {
  CHECK(sub(R"("$${x}")") == json("${x}"));
  CHECK(sub(R"("a $${count} b ${count}")") == json("a ${count} b 3"));
  CHECK(sub(R"("$$ and $ alone")") == json("$$ and $ alone"));
  CHECK(sub(R"("no references")") == json("no references"));
  CHECK(sub(R"("{count}")") == json("{count}"));
}

TEST_CASE("non-string values pass through unchanged", "[substitute]") {
  CHECK(sub("5") == json(5));
  CHECK(sub("null").is_null());
  CHECK(sub("[]") == json::array());
  CHECK(sub("{}") == json::object());
}

TEST_CASE("bad references throw errors that name the path and place", "[substitute]") {
  CHECK_THAT(error_of(R"({"a": "${missing}"})"), Catch::Contains("at /a: ${missing}: unknown variable \"missing\""));
  CHECK_THAT(error_of(R"("${init.nope}")"), Catch::Contains("${init.nope}: init has no key \"nope\""));
  CHECK_THAT(error_of(R"("${tools.x.name}")"),
             Catch::Contains("${tools.x.name}: tools is an array and \"x\" is not an index"));
  CHECK_THAT(error_of(R"("${tools.-1}")"), Catch::Contains("is not an index"));
  CHECK_THAT(error_of(R"("${tools.7.name}")"), Catch::Contains("index 7 is past the end of tools (2 elements)"));
  CHECK_THAT(error_of(R"("${count.x}")"), Catch::Contains("${count.x}: count is a number, it has no \"x\""));
  CHECK_THAT(error_of(R"("${version.0}")"), Catch::Contains("version is a string"));
  CHECK_THAT(error_of(R"(["ok", {"b": "x ${unterminated"}])"),
             Catch::Contains("at /1/b: \"${\" without a closing \"}\""));
  CHECK_THAT(error_of(R"("${}")"), Catch::Contains("empty reference ${}"));
  CHECK_THAT(error_of(R"("${init..serverInfo}")"), Catch::Contains("empty segment"));
  CHECK_THAT(error_of(R"("${init.}")"), Catch::Contains("empty segment"));
  CHECK_THAT(error_of(R"("${a${b}}")"), Catch::Contains("do not nest"));
  CHECK_THAT(error_of(R"("${dotted.key}")"), Catch::Contains("unknown variable \"dotted\""));
  CHECK_THAT(error_of(R"("${x}")", json(nullptr)), Catch::Contains("no variables"));
  CHECK_THAT(error_of(R"("${tools.1.name.x}")"), Catch::Contains("tools.1.name is a string, it has no \"x\""));
  CHECK_THAT(error_of(R"("ok ${count} then ${")"), Catch::Contains("without a closing"));
  CHECK_THAT(error_of(R"({"k~/": ["${nope}"]})"), Catch::Contains("at /k~0~1/0:"));
}

TEST_CASE("deep values are refused, not recursed into", "[substitute]") {
  json deep = "leaf";
  for (int i = 0; i < 300; ++i) deep = json::array({deep});
  CHECK_THROWS_WITH(substitute(deep, kVars), Catch::Contains("deeper than 256 levels"));
  json ok = "${count}";
  for (int i = 0; i < 200; ++i) ok = json::array({ok});
  json out = substitute(ok, kVars);
  for (int i = 0; i < 200; ++i) out = json(out[0]);
  CHECK(out == json(3));
}

TEST_CASE("$generate in a message builds tool arguments", "[substitute]") {
  json msg = sub(R"({"method": "tools/call", "params": {"name": "${tools.0.name}",
                     "arguments": {"$generate": {"schema": "${tools.0.inputSchema}", "mode": "minimal"}}}})");
  CHECK(msg["params"]["arguments"] == json{{"text", "example"}});
  json missing = sub(R"({"$generate": {"schema": "${tools.0.inputSchema}", "mode": "missing-required"}})");
  CHECK(missing == json::object());
  json wrong = sub(R"({"$generate": {"schema": "${tools.0.inputSchema}", "mode": "wrong-type"}})");
  CHECK(wrong == json{{"text", 12345}});
  // mode defaults to minimal; an inline schema works too
  json inline_schema = sub(R"({"$generate": {"schema": {"properties": {"n": {"type": "integer"}}, "required": ["n"]}}})");
  CHECK(inline_schema == json{{"n", 1}});
}

TEST_CASE("$generate errors say where they happened", "[substitute]") {
  CHECK_THAT(error_of(R"({"a": {"$generate": {"schema": "${tools.0.inputSchema}", "mode": "odd"}}})"),
             Catch::Contains("at /a/$generate: $generate: unknown argument mode \"odd\""));
  CHECK_THAT(error_of(R"({"$generate": {"schema": "${count}"}})"), Catch::Contains("inputSchema must be a JSON object"));
  CHECK_THAT(error_of(R"({"$generate": {"mode": "minimal"}})"), Catch::Contains("$generate takes"));
  CHECK_THAT(error_of(R"({"$generate": {"schema": {}, "extra": 1}})"), Catch::Contains("unknown key \"extra\""));
  CHECK_THAT(error_of(R"({"$generate": {"schema": {}}, "other": 1})"), Catch::Contains("only key"));
  CHECK_THAT(error_of(R"({"$generate": {"schema": "${nope}"}})"), Catch::Contains("unknown variable \"nope\""));
}

TEST_CASE("$for_each_key maps every key of an object to a value built for that key", "[substitute]") {
  // Answering input requests whose keys the target chose (tasks/update).
  CHECK(sub(R"({"inputResponses": {"$for_each_key": {"of": "${init.capabilities}", "value": {"action": "decline"}}}})") ==
        json::parse(R"({"inputResponses": {"tools": {"action": "decline"}}})"));
  CHECK(sub(R"({"$for_each_key": {"of": {}, "value": 1}})") == json::object());
  // As a matcher: none of the keys may be there (a key answered before is never asked again).
  json none_of = sub(R"({"$for_each_key": {"of": {"q1": 0, "q2": 0}, "value": {"$absent": true}}})");
  CHECK(match(none_of, json::parse(R"({"q3": {}})")).ok);
  CHECK_FALSE(match(none_of, json::parse(R"({"q3": {}, "q2": {}})")).ok);
  // ${each.key} / ${each.value}: each key gone, or still naming the same request.
  json same_or_gone = sub(R"({"$for_each_key": {"of": {"q1": {"m": 1}, "q2": {"m": 2}},
                              "value": {"$anyOf": [{"$absent": true}, {"$eq": "${each.value}"}]}}})");
  CHECK(match(same_or_gone, json::parse(R"({"q1": {"m": 1}, "q3": {"m": 3}})")).ok);
  CHECK_FALSE(match(same_or_gone, json::parse(R"({"q2": {"m": 3}})")).ok);
  CHECK(sub(R"({"$for_each_key": {"of": {"a": 1}, "value": "${each.key}=${each.value}"}})") == json{{"a", "a=1"}});
  CHECK_THAT(error_of(R"({"a": {"$for_each_key": {"of": "${count}", "value": 1}}})"),
             Catch::Contains("at /a/$for_each_key: $for_each_key: \"of\" must be an object, got a number"));
  CHECK_THAT(error_of(R"({"$for_each_key": {"of": {}}})"), Catch::Contains("$for_each_key takes"));
  CHECK_THAT(error_of(R"({"$for_each_key": {"of": {}, "value": 1}, "x": 2})"), Catch::Contains("only key"));
}

TEST_CASE("edge cases of reference syntax", "[substitute]") {
  // A reference that is the whole string but followed by an escape is text, not a typed value.
  CHECK(sub(R"("${count}$${x}")") == json("3${x}"));
  CHECK(sub(R"("${count}${count}")") == json("33"));
  CHECK(sub(R"("${tools.0}")") == kVars["tools"][0]);
  CHECK(sub(R"("[${tools.1}]")") == json(R"([{"name":"add"}])"));
  CHECK(sub(R"("}${version}{")") == json("}2025-06-18{"));
  CHECK(sub(R"("$")") == json("$"));
}

TEST_CASE("matching captures feed the next message", "[substitute]") {
  // The runner's loop in miniature: match a response, capture, substitute into the next step.
  auto r = match(json::parse(R"({"result": {"tools": {"$contains": {"name": "echo", "inputSchema": {"$capture": "schema"}}},
                                            "nextCursor": {"$type": "string", "$capture": "cursor"}}})"),
                 json::parse(R"({"result": {"tools": [{"name": "echo", "inputSchema": {"type": "object",
                                  "properties": {"n": {"type": "integer", "minimum": 2}}, "required": ["n"]}}],
                                  "nextCursor": "c-1"}})"));
  REQUIRE(r.ok);
  json next = substitute(json::parse(R"({"method": "tools/list", "params": {"cursor": "${cursor}"}})"), r.captured);
  CHECK(next["params"]["cursor"] == "c-1");
  json call = substitute(json::parse(R"({"params": {"arguments": {"$generate": {"schema": "${schema}", "mode": "full"}}}})"),
                         r.captured);
  CHECK(call["params"]["arguments"] == json{{"n", 2}});
  // A matcher using a capture literally: substitute first, then match.
  json expect = substitute(json::parse(R"({"cursor": {"$eq": "${cursor}"}})"), r.captured);
  CHECK(match(expect, json{{"cursor", "c-1"}}).ok);
  CHECK_FALSE(match(expect, json{{"cursor", "c-2"}}).ok);
}
