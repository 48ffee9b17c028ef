// The scenario matcher language: every operator in both directions, the wording of mismatch
// lines, check_matcher() errors with their pointers, and the guards (depth, regex input size,
// mismatch cap, threads).
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "harness/scenario/matcher.hpp"
#include "harness/util/bounded_regex.hpp"

using nlohmann::json;
using mcpspec::scenario::check_matcher;
using mcpspec::scenario::match;
using mcpspec::scenario::MatcherError;
using mcpspec::scenario::MatchResult;

namespace {

MatchResult run(const std::string& matcher, const std::string& value) {
  return match(json::parse(matcher), json::parse(value));
}

bool ok(const std::string& matcher, const std::string& value) { return run(matcher, value).ok; }

std::string joined(const MatchResult& r) {
  std::string out;
  for (const auto& line : r.mismatches) out += line + "\n";
  return out;
}

// The single mismatch line of a failed match (fails the test when there is not exactly one).
std::string only_line(const std::string& matcher, const std::string& value) {
  auto r = run(matcher, value);
  INFO(joined(r));
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.mismatches.size() == 1);
  return r.mismatches[0];
}

// The pointer a malformed matcher is reported at.
std::string error_pointer(const std::string& matcher) {
  try {
    check_matcher(json::parse(matcher));
  } catch (const MatcherError& e) {
    return e.pointer();
  }
  FAIL("check_matcher accepted " << matcher);
  return "";
}

std::string error_text(const std::string& matcher) {
  try {
    check_matcher(json::parse(matcher));
  } catch (const MatcherError& e) {
    return e.what();
  }
  FAIL("check_matcher accepted " << matcher);
  return "";
}

}  // namespace

TEST_CASE("plain objects match by subset", "[matcher]") {
  CHECK(ok(R"({"a": 1})", R"({"a": 1, "b": 2})"));
  CHECK(ok(R"({})", R"({"anything": true})"));
  CHECK(ok(R"({"r": {"x": "y"}})", R"({"r": {"x": "y", "z": [1]}, "id": 3})"));
  CHECK_FALSE(ok(R"({})", R"([])"));
  CHECK(only_line(R"({"result": {"tools": []}})", R"({"result": {}})") == R"(/result: missing key "tools")");
  CHECK(only_line(R"({"result": {"a": 1}})", R"({"result": 5})") == "/result: expected an object, got 5");
  CHECK(only_line(R"({"a": 1})", R"("x")") == R"((root): expected an object, got "x")");
}

TEST_CASE("plain arrays match element-wise with the same length", "[matcher]") {
  CHECK(ok(R"([1, "a", {"k": true}])", R"([1, "a", {"k": true, "extra": 0}])"));
  CHECK(ok(R"([])", R"([])"));
  CHECK(only_line(R"({"a": [1, 2]})", R"({"a": [1, 2, 3]})") ==
        "/a: expected an array of 2 elements, got 3 elements: [1,2,3]");
  CHECK(only_line(R"({"a": [1, 2]})", R"({"a": [1, 5]})") == "/a/1: expected 2, got 5");
  CHECK(only_line(R"([1])", R"({"0": 1})") == R"((root): expected an array, got {"0":1})");
}

TEST_CASE("scalars match by equality, numbers by value", "[matcher]") {
  CHECK(only_line(R"({"result": {"content": [{"type": "text"}]}})", R"({"result": {"content": [{"type": "image"}]}})") ==
        R"(/result/content/0/type: expected "text", got "image")");
  CHECK(ok(R"({"n": 1})", R"({"n": 1.0})"));
  CHECK(ok(R"({"n": 1.0})", R"({"n": 1})"));
  CHECK(ok(R"({"n": -3})", R"({"n": -3.0})"));
  CHECK(ok(R"({"n": 18446744073709551615})", R"({"n": 18446744073709551615})"));
  CHECK_FALSE(ok(R"({"n": 9223372036854775807})", R"({"n": 18446744073709551615})"));
  CHECK_FALSE(ok(R"({"n": -1})", R"({"n": 18446744073709551615})"));
  CHECK(only_line(R"({"n": 1})", R"({"n": "1"})") == R"(/n: expected 1, got "1")");
  CHECK_FALSE(ok(R"({"s": "1"})", R"({"s": 1})"));
  CHECK(ok(R"({"b": false})", R"({"b": false})"));
  CHECK_FALSE(ok(R"({"b": false})", R"({"b": 0})"));
  CHECK(ok(R"({"z": null})", R"({"z": null})"));
  CHECK(only_line(R"({"z": null})", R"({})") == R"((root): missing key "z")");
  CHECK_FALSE(ok(R"({"z": null})", R"({"z": false})"));
}

TEST_CASE("keys containing / and ~ are escaped in pointers", "[matcher]") {
  CHECK(only_line(R"({"a/b": {"c~d": 1}})", R"({"a/b": {"c~d": 2}})") == "/a~1b/c~0d: expected 1, got 2");
}

TEST_CASE("$any accepts every present value and nothing absent", "[matcher]") {
  CHECK(ok(R"({"a": {"$any": true}})", R"({"a": null})"));
  CHECK(ok(R"({"a": {"$any": true}})", R"({"a": [1]})"));
  CHECK(ok(R"({"$any": true})", R"(7)"));
  CHECK(only_line(R"({"r": {"a": {"$any": true}}})", R"({"r": {}})") == R"(/r: missing key "a")");
}

TEST_CASE("$absent demands a missing member", "[matcher]") {
  CHECK(ok(R"({"result": {"isError": {"$absent": true}}})", R"({"result": {}})"));
  CHECK(only_line(R"({"result": {"isError": {"$absent": true}}})", R"({"result": {"isError": true}})") ==
        "/result/isError: expected key to be absent, got true");
  CHECK(only_line(R"({"a": {"$absent": true}})", R"({"a": null})") == "/a: expected key to be absent, got null");
  // At the top level or as an array element there is always a value.
  CHECK_FALSE(ok(R"({"$absent": true})", R"({})"));
  CHECK_FALSE(ok(R"([{"$absent": true}])", R"([1])"));
  // Combined through logic: absent or a string.
  CHECK(ok(R"({"a": {"$anyOf": [{"$absent": true}, {"$type": "string"}]}})", R"({})"));
  CHECK(ok(R"({"a": {"$anyOf": [{"$absent": true}, {"$type": "string"}]}})", R"({"a": "x"})"));
  CHECK_FALSE(ok(R"({"a": {"$anyOf": [{"$absent": true}, {"$type": "string"}]}})", R"({"a": 1})"));
  CHECK(ok(R"({"a": {"$not": {"$absent": true}}})", R"({"a": 1})"));
  CHECK(only_line(R"({"a": {"$not": {"$absent": true}}})", R"({})") ==
        R"((root): missing key "a" (expected a value not matching {"$absent":true}))");
}

TEST_CASE("$type names JSON types", "[matcher]") {
  CHECK(ok(R"({"$type": "string"})", R"("x")"));
  CHECK(ok(R"({"$type": "object"})", R"({})"));
  CHECK(ok(R"({"$type": "array"})", R"([])"));
  CHECK(ok(R"({"$type": "boolean"})", R"(false)"));
  CHECK(ok(R"({"$type": "null"})", R"(null)"));
  CHECK(ok(R"({"$type": "number"})", R"(1)"));
  CHECK(ok(R"({"$type": "number"})", R"(1.5)"));
  CHECK(ok(R"({"$type": "integer"})", R"(-4)"));
  CHECK(ok(R"({"$type": "integer"})", R"(2.0)"));  // JSON has one number type: 2.0 is integral
  CHECK_FALSE(ok(R"({"$type": "integer"})", R"(2.5)"));
  CHECK_FALSE(ok(R"({"$type": "integer"})", R"("2")"));
  CHECK_FALSE(ok(R"({"$type": "null"})", R"(0)"));
  CHECK_FALSE(ok(R"({"$type": "object"})", R"([])"));
  CHECK(ok(R"({"$type": ["string", "null"]})", R"(null)"));
  CHECK(only_line(R"({"id": {"$type": ["string", "integer"]}})", R"({"id": 1.5})") ==
        "/id: expected type string or integer, got 1.5");
  CHECK(only_line(R"({"id": {"$type": "string"}})", R"({})") == R"((root): missing key "id")");
}

TEST_CASE("$regex searches strings", "[matcher]") {
  CHECK(ok(R"({"$regex": "b+"})", R"("abbbc")"));  // search, not full match
  CHECK_FALSE(ok(R"({"$regex": "^b+$"})", R"("abbbc")"));
  CHECK(ok(R"({"$regex": "^\\d{4}-\\d{2}$"})", R"("2025-01")"));
  CHECK(only_line(R"({"v": {"$regex": "^x"}})", R"({"v": "yx"})") == R"(/v: expected a string matching "^x", got "yx")");
  CHECK(only_line(R"({"v": {"$regex": "^x"}})", R"({"v": 5})") == R"(/v: expected a string matching "^x", got 5)");
}

TEST_CASE("$regex looks at long strings", "[matcher]") {
  const std::string long_text = std::string(200000, 'a') + "b";
  CHECK(match({{"$regex", "ab$"}}, long_text).ok);
  auto r = match({{"$regex", "^b"}}, long_text);
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.mismatches.size() == 1);
  CHECK(r.mismatches[0].size() < 300);
}

// {"$regex": "a{1000}"} on a string past kMaxRegexWork / 1000 characters is refused before it
// runs: mcpspec cannot tell.
TEST_CASE("a check the matcher cannot make is undecided, and combines as unknown", "[matcher]") {
  const json costly = {{"$regex", "a{1000}"}};
  const json text = std::string(mcpspec::kMaxRegexWork / 1000 + 1000, 'a');
  auto undecided = [](const MatchResult& r) { return !r.ok && r.mismatches.empty() && !r.undecided.empty(); };

  auto alone = match(costly, text);
  CHECK(undecided(alone));
  REQUIRE(alone.undecided.size() == 1);
  CHECK_THAT(alone.undecided[0], Catch::Contains("too costly"));
  // $not of an unknown is unknown: a mismatch here used to make {"$not": ...} pass.
  CHECK(undecided(match({{"$not", costly}}, text)));
  CHECK(undecided(match({{"$not", {{"$not", costly}}}}, text)));
  // Any-of: a matching option decides; otherwise an undecided option leaves it undecided.
  CHECK(match({{"$anyOf", {costly, {{"$type", "string"}}}}}, text).ok);
  CHECK(undecided(match({{"$anyOf", {costly, {{"$type", "number"}}}}}, text)));
  CHECK_FALSE(match({{"$anyOf", {{{"$type", "number"}}, {{"$type", "null"}}}}}, text).undecided.size());
  CHECK(undecided(match({{"$in", {costly, 5}}}, text)));
  // All-of (objects, arrays, $allOf, $each): a mismatch decides, and nothing is left undecided.
  auto with_mismatch = match({{"a", costly}, {"b", 1}}, {{"a", text}, {"b", 2}});
  REQUIRE_FALSE(with_mismatch.ok);
  CHECK(with_mismatch.undecided.empty());
  REQUIRE(with_mismatch.mismatches.size() == 1);
  CHECK_THAT(with_mismatch.mismatches[0], Catch::StartsWith("/b:"));
  CHECK(undecided(match({{"a", costly}, {"b", 1}}, {{"a", text}, {"b", 1}})));
  CHECK(undecided(match({{"$allOf", {costly, {{"$type", "string"}}}}}, text)));
  CHECK_FALSE(match({{"$each", costly}}, {text, 5}).undecided.size());
  // $contains: an element that matches decides.
  CHECK(match({{"$contains", costly}}, {text, std::string(1500, 'a')}).ok);
  CHECK(undecided(match({{"$contains", costly}}, {text, "b"})));
  CHECK_FALSE(match({{"$contains", {{"$type", "number"}}}}, {"b"}).undecided.size());
  // $len with a matcher on the length, a missing member under $not.
  CHECK(undecided(match({{"$len", {{"$not", {{"$conformsTo", {{"patternProperties", {{"x", true}}}}}}}}}}, text)));
  CHECK(match({{"k", {{"$not", costly}}}}, json::object()).ok);  // absent: nothing to decide on
  // A schema mcpspec cannot check against, and one that is broken whoever checks it.
  CHECK(undecided(match({{"$conformsTo", {{"patternProperties", {{"^a", {{"type", "string"}}}}}}}}, {{"a", 1}})));
  auto broken = match({{"$conformsTo", {{"$ref", "#/definitions/none"}}}}, 1);
  CHECK(broken.undecided.empty());
  CHECK_FALSE(broken.ok);
}

TEST_CASE("$regex matchers run from several threads", "[matcher]") {
  const json digits = {{"n", {{"$regex", "^[0-9]+$"}}}};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        bool want = (i + t) % 2 == 0;
        json value = {{"n", want ? std::to_string(i * 7919) : "x" + std::to_string(i)}};
        if (match(digits, value).ok != want) ++wrong;
        // A pattern per thread and round compiles concurrently with the shared one.
        json own = {{"$regex", "^t" + std::to_string(t) + "-" + std::to_string(i % 17) + "$"}};
        if (!match(own, "t" + std::to_string(t) + "-" + std::to_string(i % 17)).ok) ++wrong;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(wrong == 0);
}

TEST_CASE("$in accepts one of the listed matchers", "[matcher]") {
  CHECK(ok(R"({"$in": ["2024-11-05", "2025-06-18"]})", R"("2025-06-18")"));
  CHECK(ok(R"({"$in": [1, {"$type": "string"}]})", R"("any")"));
  CHECK(ok(R"({"$in": [1]})", R"(1.0)"));
  CHECK(only_line(R"({"error": {"code": {"$in": [-32602]}}})", R"({"error": {"code": -32603}})") ==
        "/error/code: expected one of [-32602], got -32603");
  CHECK(only_line(R"({"code": {"$in": [1, 2]}})", R"({})") == R"((root): missing key "code" (expected one of [1,2]))");
}

TEST_CASE("$contains looks into arrays and strings", "[matcher]") {
  CHECK(ok(R"({"$contains": {"name": "echo"}})", R"([{"name": "add"}, {"name": "echo", "x": 1}])"));
  CHECK_FALSE(ok(R"({"$contains": {"name": "echo"}})", R"([])"));
  CHECK(ok(R"({"$contains": "lo w"})", R"("hello world")"));
  CHECK(ok(R"({"$contains": "a"})", R"(["b", "a"])"));
  CHECK(only_line(R"({"t": {"$contains": "xyz"}})", R"({"t": "hello"})") ==
        R"(/t: expected a string containing "xyz", got "hello")");
  CHECK(only_line(R"({"t": {"$contains": 1}})", R"({"t": [2, 3]})") ==
        "/t: expected an array with an element matching 1, got [2,3]");
  CHECK_THAT(only_line(R"({"$contains": 1})", R"("1")"), Catch::Contains("only a string argument searches strings"));
  CHECK_THAT(only_line(R"({"$contains": 1})", R"(1)"), Catch::Contains("expected an array or a string"));
  // The element that matched supplies the captures.
  auto r = run(R"({"$contains": {"name": "b", "id": {"$capture": "id"}}})", R"([{"name": "a", "id": 1}, {"name": "b", "id": 2}])");
  REQUIRE(r.ok);
  CHECK(r.captured == json{{"id", 2}});
}

TEST_CASE("$each checks every element", "[matcher]") {
  CHECK(ok(R"({"$each": {"$type": "integer"}})", R"([1, 2, 3])"));
  CHECK(ok(R"({"$each": {"$type": "integer"}})", R"([])"));
  auto r = run(R"({"tools": {"$each": {"name": {"$type": "string"}}}})", R"({"tools": [{"name": "a"}, {"name": 1}, {}]})");
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.mismatches.size() == 2);
  CHECK(r.mismatches[0] == "/tools/1/name: expected type string, got 1");
  CHECK(r.mismatches[1] == R"(/tools/2: missing key "name")");
  CHECK(only_line(R"({"$each": 1})", R"({"a": 1})") == R"((root): expected an array ($each), got {"a":1})");
}

TEST_CASE("$len measures arrays, strings in code points and objects", "[matcher]") {
  CHECK(ok(R"({"$len": 3})", R"([1, 2, 3])"));
  CHECK(ok(R"({"$len": 0})", R"([])"));
  CHECK(ok(R"({"$len": 5})", R"("h\u00e9llo")"));  // 6 bytes, 5 code points
  CHECK(ok(R"({"$len": 1})", R"("\ud83d\ude00")"));  // one emoji, 4 bytes
  CHECK(ok(R"({"$len": 2})", R"({"a": 1, "b": 2})"));
  CHECK(ok(R"({"$len": {"$gte": 1}})", R"(["x"])"));
  CHECK(only_line(R"({"a": {"$len": 2}})", R"({"a": [1]})") == "/a: expected length 2, got length 1: [1]");
  CHECK(only_line(R"({"a": {"$len": {"$gte": 1}}})", R"({"a": []})") ==
        R"(/a: expected length matching {"$gte":1}, got length 0: [])");
  CHECK_THAT(only_line(R"({"$len": 1})", R"(5)"), Catch::Contains("expected an array, string or object ($len)"));
}

TEST_CASE("$not, $anyOf and $allOf combine matchers", "[matcher]") {
  CHECK(ok(R"({"$not": {"$type": "string"}})", R"(1)"));
  CHECK(only_line(R"({"$not": {"$type": "string"}})", R"("s")") ==
        R"((root): expected a value not matching {"$type":"string"}, got "s")");
  CHECK(ok(R"({"$anyOf": [{"$type": "string"}, {"$gt": 10}]})", R"(11)"));
  CHECK(only_line(R"({"v": {"$anyOf": [{"$type": "string"}, {"$gt": 10}]}})", R"({"v": 3})") ==
        R"(/v: expected any of [{"$type":"string"},{"$gt":10}], got 3)");
  CHECK(ok(R"({"$allOf": [{"$type": "integer"}, {"$gt": 0}]})", R"(4)"));
  auto r = run(R"({"$allOf": [{"$type": "string"}, {"$gt": 0}]})", R"(-1)");
  REQUIRE_FALSE(r.ok);
  CHECK(r.mismatches.size() == 2);  // every failing part is reported
  // Captures survive from the branch that matched, never from a $not.
  auto c = run(R"({"$anyOf": [{"a": {"$capture": "x"}, "b": 1}, {"a": {"$capture": "y"}}]})", R"({"a": 5, "b": 2})");
  REQUIRE(c.ok);
  CHECK(c.captured == json{{"y", 5}});
  auto n = run(R"({"$not": {"$capture": "z", "$type": "string"}})", R"(1)");
  REQUIRE(n.ok);
  CHECK(n.captured.empty());
}

TEST_CASE("$gt, $gte, $lt and $lte compare numbers", "[matcher]") {
  CHECK(ok(R"({"$gt": 1})", R"(1.5)"));
  CHECK_FALSE(ok(R"({"$gt": 1})", R"(1)"));
  CHECK(ok(R"({"$gte": 1})", R"(1.0)"));
  CHECK_FALSE(ok(R"({"$gte": 1})", R"(0.999)"));
  CHECK(ok(R"({"$lt": 0})", R"(-1)"));
  CHECK_FALSE(ok(R"({"$lt": 0})", R"(0)"));
  CHECK(ok(R"({"$lte": 0})", R"(0)"));
  CHECK_FALSE(ok(R"({"$lte": 0})", R"(1)"));
  CHECK(ok(R"({"$gt": -1})", R"(18446744073709551615)"));
  CHECK(ok(R"({"$gte": 0, "$lt": 10})", R"(9)"));
  CHECK_FALSE(ok(R"({"$gte": 0, "$lt": 10})", R"(10)"));
  CHECK(only_line(R"({"p": {"$gt": 5}})", R"({"p": 3})") == "/p: expected a number > 5, got 3");
  CHECK(only_line(R"({"p": {"$lte": 5}})", R"({"p": "3"})") == R"(/p: expected a number <= 5, got "3")");
}

TEST_CASE("$eq compares literally and exactly", "[matcher]") {
  CHECK(ok(R"({"$eq": {"a": 1}})", R"({"a": 1.0})"));
  CHECK(ok(R"({"$eq": {"$type": "string"}})", R"({"$type": "string"})"));  // operators are not interpreted
  CHECK_FALSE(ok(R"({"$eq": {"$type": "string"}})", R"("s")"));
  CHECK(ok(R"({"$eq": {"$schema": "x", "type": "object"}})", R"({"type": "object", "$schema": "x"})"));
  CHECK(only_line(R"({"$eq": {"a": 1}})", R"({"a": 1, "b": 2})") == R"((root): unexpected key "b" (exact match))");
  CHECK(only_line(R"({"v": {"$eq": {"a": {"b": [1, 2]}}}})", R"({"v": {"a": {"b": [1, 3]}}})") ==
        "/v/a/b/1: expected exactly 2, got 3");
  CHECK(only_line(R"({"$eq": [1, 2]})", R"([1, 2, 3])") == "(root): expected exactly [1,2], got [1,2,3]");
  CHECK(only_line(R"({"$eq": {"a": 1}})", R"({})") == R"((root): missing key "a" (exact match))");
  CHECK(only_line(R"({"$eq": null})", R"(0)") == "(root): expected exactly null, got 0");
}

TEST_CASE("$exact forbids extra keys at its own level only", "[matcher]") {
  CHECK(ok(R"({"result": {"$exact": {}}})", R"({"result": {}, "id": 1})"));
  CHECK(only_line(R"({"result": {"$exact": {}}})", R"({"result": {"x": 1}})") == R"(/result: unexpected key "x")");
  CHECK(ok(R"({"$exact": {"a": {"b": 1}}})", R"({"a": {"b": 1, "c": 2}})"));
  CHECK(ok(R"({"$exact": {"a": {"$type": "integer"}, "b": {"$absent": true}}})", R"({"a": 1})"));
  CHECK_FALSE(ok(R"({"$exact": {"a": 1}})", R"([1])"));
}

TEST_CASE("$capture records values, alone or with other operators", "[matcher]") {
  auto r = run(R"({"result": {"protocolVersion": {"$capture": "version"}, "serverInfo": {"name": {"$type": "string", "$capture": "name"}}}})",
               R"({"result": {"protocolVersion": "2025-06-18", "serverInfo": {"name": "srv"}}})");
  REQUIRE(r.ok);
  CHECK(r.captured == json{{"version", "2025-06-18"}, {"name", "srv"}});
  auto obj = run(R"({"$capture": "all"})", R"({"a": [1, {"b": null}]})");
  REQUIRE(obj.ok);
  CHECK(obj.captured["all"] == json::parse(R"({"a": [1, {"b": null}]})"));
  auto bad = run(R"({"t": {"$type": "string", "$capture": "tok"}})", R"({"t": 5})");
  CHECK_FALSE(bad.ok);
  CHECK(only_line(R"({"t": {"$capture": "tok"}})", R"({})") == R"((root): missing key "t")");
}

TEST_CASE("$increasing checks strictly rising numbers", "[matcher]") {
  CHECK(ok(R"({"$increasing": "/params/progress"})",
           R"([{"params": {"progress": 1}}, {"params": {"progress": 2.5}}, {"params": {"progress": 3}}])"));
  CHECK(ok(R"({"$increasing": ""})", R"([1, 2, 10])"));
  CHECK(ok(R"({"$increasing": ""})", R"([])"));
  CHECK(only_line(R"({"$increasing": ""})", R"([1, 2, 2])") ==
        "/2: expected a number greater than 2 (strictly increasing), got 2");
  CHECK(only_line(R"({"p": {"$increasing": "/v"}})", R"({"p": [{"v": 5}, {"w": 6}]})") ==
        "/p/1: missing /v (needed by $increasing)");
  CHECK(only_line(R"({"$increasing": "/v"})", R"([{"v": "1"}])") == R"(/0/v: expected a number ($increasing), got "1")");
  CHECK(only_line(R"({"$increasing": ""})", R"({"a": 1})") == R"((root): expected an array ($increasing), got {"a":1})");
  // Pointers that cannot resolve in an element (index too large for any array, a key in a
  // number) read as missing, never as an exception.
  CHECK(only_line(R"({"$increasing": "/99999999999999999999999"})", R"([[1]])") ==
        "/0: missing /99999999999999999999999 (needed by $increasing)");
  CHECK(only_line(R"({"$increasing": "/v"})", R"([1])") == "/0: missing /v (needed by $increasing)");
  CHECK(ok(R"({"$increasing": "/1"})", R"([[9, 1], [0, 2]])"));
}

TEST_CASE("$unique checks pairwise distinct values", "[matcher]") {
  CHECK(ok(R"({"$unique": "/name"})", R"([{"name": "a"}, {"name": "b"}])"));
  CHECK(ok(R"({"$unique": ""})", R"([{"a": 1}, {"a": 2}, [1], "1", 1])"));
  CHECK(only_line(R"({"tools": {"$unique": "/name"}})", R"({"tools": [{"name": "a"}, {"name": "b"}, {"name": "a"}]})") ==
        R"(/tools/2/name: expected a value unique among the elements, got "a" (same as at /tools/0/name))");
  CHECK_FALSE(ok(R"({"$unique": ""})", R"([1, 1.0])"));
  CHECK_FALSE(ok(R"({"$unique": ""})", R"([{"a": 1, "b": 2}, {"b": 2, "a": 1}])"));
  CHECK(only_line(R"({"$unique": "/id"})", R"([{"id": 1}, {}])") == "/1: missing /id (needed by $unique)");
  CHECK(only_line(R"({"$unique": "/01"})", R"([[1, 2]])") == "/0: missing /01 (needed by $unique)");
}

TEST_CASE("$base64 accepts standard padded base64 only", "[matcher]") {
  for (const char* good : {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYmFy", "+/+/", "AAAA"})
    CHECK(match(json{{"$base64", true}}, good).ok);
  CHECK_THAT(only_line(R"({"$base64": true})", R"("Zg")"), Catch::Contains("length 2 is not a multiple of 4"));
  CHECK_THAT(only_line(R"({"$base64": true})", R"("Zg=")"), Catch::Contains("length 3 is not a multiple of 4"));
  CHECK_THAT(only_line(R"({"$base64": true})", R"("Zm9v\nYmFy")"), Catch::Contains("control character 10"));
  CHECK_THAT(only_line(R"({"$base64": true})", R"("Zm 9")"), Catch::Contains("a space at offset 2"));
  CHECK_THAT(only_line(R"({"$base64": true})", R"("Zg==Zg==")"), Catch::Contains("padding at offset 2"));
  CHECK_THAT(only_line(R"({"$base64": true})", R"("Z===")"), Catch::Contains("padding at offset 1"));
  CHECK_THAT(only_line(R"({"$base64": true})", R"("Zm-_")"), Catch::Contains("'-' at offset 2"));  // base64url
  CHECK(only_line(R"({"d": {"$base64": true}})", R"({"d": 5})") == "/d: expected a base64 string, got 5");
}

TEST_CASE("$uri accepts syntactically valid URIs", "[matcher]") {
  for (const char* good : {"https://example.com/a?b=c#d", "file:///tmp/x.txt", "urn:isbn:0451450523", "mailto:a@b.c",
                           "custom+scheme.v1-2:thing", "http://[::1]:8080/", "s3://bucket/key%20with%20space"})
    CHECK(match(json{{"$uri", true}}, good).ok);
  CHECK_THAT(only_line(R"({"$uri": true})", R"("/just/a/path")"), Catch::Contains("does not start with a scheme"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("1http://x")"), Catch::Contains("does not start with a scheme"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("nocolon")"), Catch::Contains("no ':' after the scheme"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("ht tp://x")"), Catch::Contains("no scheme: a space"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("https://x/a b")"), Catch::Contains("a space at offset 11"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("https://x/%zz")"), Catch::Contains("not followed by two hex digits"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("https://x/%2")"), Catch::Contains("not followed by two hex digits"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("https://x/<a>")"), Catch::Contains("'<'"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("https://x/\u00e9")"), Catch::Contains("non-ASCII byte"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("a:b#c#d")"), Catch::Contains("second '#'"));
  CHECK_THAT(only_line(R"({"$uri": true})", R"("")"), Catch::Contains("empty string"));
  CHECK(only_line(R"({"u": {"$uri": true}})", R"({"u": null})") == "/u: expected a URI string, got null");
}

TEST_CASE("$conformsTo validates against a JSON Schema", "[matcher]") {
  const char* schema = R"({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]})";
  CHECK(ok(std::string(R"({"structuredContent": {"$conformsTo": )") + schema + "}}", R"({"structuredContent": {"n": 3, "x": 1}})"));
  auto bad = run(std::string(R"({"structuredContent": {"$conformsTo": )") + schema + "}}", R"({"structuredContent": {"n": -1}})");
  REQUIRE_FALSE(bad.ok);
  REQUIRE_FALSE(bad.mismatches.empty());
  CHECK_THAT(bad.mismatches[0], Catch::StartsWith("/structuredContent/n: does not conform to the given schema"));
  auto missing = run(std::string(R"({"$conformsTo": )") + schema + "}", R"({})");
  REQUIRE_FALSE(missing.ok);
  CHECK_THAT(joined(missing), Catch::Contains("(root): does not conform to the given schema"));
  // Keys such as $schema and $ref inside the schema are not read as operators.
  CHECK(ok(R"({"$conformsTo": {"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/S",
                                "definitions": {"S": {"type": "string"}}}})", R"("s")"));
  CHECK(ok(R"({"$conformsTo": true})", R"(null)"));
  CHECK_FALSE(ok(R"({"$conformsTo": false})", R"(null)"));
  CHECK(only_line(R"({"r": {"$conformsTo": {}}})", R"({})") == R"((root): missing key "r")");
  CHECK(error_pointer(R"({"a": {"$conformsTo": 3}})") == "/a/$conformsTo");
  CHECK_NOTHROW(check_matcher(json::parse(R"({"$conformsTo": "${tool.outputSchema}"})")));
}

TEST_CASE("several operators in one object must all hold", "[matcher]") {
  CHECK(ok(R"({"$type": "string", "$regex": "^a", "$len": 3})", R"("abc")"));
  auto r = run(R"({"$type": "string", "$regex": "^a", "$len": 3})", R"("xbcd")");
  REQUIRE_FALSE(r.ok);
  CHECK(r.mismatches.size() == 2);
}

TEST_CASE("every mismatch is reported, up to a cap", "[matcher]") {
  auto r = run(R"({"a": 1, "b": "x", "c": {"d": true}, "e": {"$absent": true}})", R"({"a": 2, "b": "y", "c": {}, "e": 0})");
  REQUIRE_FALSE(r.ok);
  CHECK(r.mismatches.size() == 4);
  json m = {{"$each", {{"$type", "string"}}}};
  json big = json::array();
  for (int i = 0; i < 5000; ++i) big.push_back(i);
  auto capped = match(m, big);
  REQUIRE_FALSE(capped.ok);
  REQUIRE(capped.mismatches.size() == 21);
  CHECK(capped.mismatches[0] == "/0: expected type string, got 0");
  CHECK(capped.mismatches.back() == "further mismatches not listed (limit 20)");
}

TEST_CASE("long values are cut in mismatch lines", "[matcher]") {
  std::string huge(100000, 'q');
  auto r = match(json{{"s", "short"}}, json{{"s", huge}});
  REQUIRE(r.mismatches.size() == 1);
  CHECK(r.mismatches[0].size() < 260);
  CHECK_THAT(r.mismatches[0], Catch::EndsWith("..."));
  json wide = json::array();
  for (int i = 0; i < 10000; ++i) wide.push_back({{"k", i}});
  auto w = match(json{{"$type", "string"}}, wide);
  REQUIRE(w.mismatches.size() == 1);
  CHECK(w.mismatches[0].size() < 260);
}

TEST_CASE("check_matcher reports malformed matchers with their pointer", "[matcher]") {
  CHECK(error_pointer(R"({"result": {"$typo": 1}})") == "/result/$typo");
  CHECK_THAT(error_text(R"({"result": {"$typo": 1}})"),
             Catch::StartsWith("/result/$typo: unknown operator $typo; known: $absent, $allOf, $any"));
  CHECK(error_pointer(R"({"a": {"$len": "3"}})") == "/a/$len");
  CHECK_THAT(error_text(R"({"a": {"$len": "3"}})"), Catch::Contains("non-negative integer"));
  CHECK(error_pointer(R"({"$len": -1})") == "/$len");
  CHECK(error_pointer(R"({"$len": {"a": 1}})") == "/$len");
  CHECK(error_pointer(R"({"a": [{}, {"$regex": "("}]})") == "/a/1/$regex");
  CHECK_THAT(error_text(R"({"$regex": "[a-"})"), Catch::Contains("does not compile"));
  CHECK(error_pointer(R"({"$regex": 5})") == "/$regex");
  CHECK(error_pointer(R"({"$type": "text"})") == "/$type");
  CHECK(error_pointer(R"({"$type": ["string", "int"]})") == "/$type/1");
  CHECK(error_pointer(R"({"$type": []})") == "/$type");
  CHECK(error_pointer(R"({"$in": 1})") == "/$in");
  CHECK(error_pointer(R"({"$in": []})") == "/$in");
  CHECK(error_pointer(R"({"$in": [1, {"$bogus": 1}]})") == "/$in/1/$bogus");
  CHECK(error_pointer(R"({"$anyOf": {}})") == "/$anyOf");
  CHECK(error_pointer(R"({"$allOf": [{"$gt": "1"}]})") == "/$allOf/0/$gt");
  CHECK(error_pointer(R"({"$not": {"$nope": 1}})") == "/$not/$nope");
  CHECK(error_pointer(R"({"$each": {"x": {"$lt": null}}})") == "/$each/x/$lt");
  CHECK(error_pointer(R"({"$contains": {"$len": "x"}})") == "/$contains/$len");
  CHECK(error_pointer(R"({"$any": 1})") == "/$any");
  CHECK(error_pointer(R"({"$absent": false})") == "/$absent");
  CHECK(error_pointer(R"({"k": {"$absent": true, "$type": "string"}})") == "/k");
  CHECK(error_pointer(R"({"$base64": "yes"})") == "/$base64");
  CHECK(error_pointer(R"({"$uri": 1})") == "/$uri");
  CHECK(error_pointer(R"({"$exact": [1]})") == "/$exact");
  CHECK(error_pointer(R"({"$exact": {"$type": "object"}})") == "/$exact");
  CHECK(error_pointer(R"({"$exact": {"a": {"$typo": 1}}})") == "/$exact/a/$typo");
  CHECK(error_pointer(R"({"$capture": ""})") == "/$capture");
  CHECK(error_pointer(R"({"$capture": "a.b"})") == "/$capture");
  CHECK(error_pointer(R"({"$increasing": "no-slash"})") == "/$increasing");
  CHECK(error_pointer(R"({"$unique": "/a~2"})") == "/$unique");
  CHECK(error_pointer(R"({"$unique": 3})") == "/$unique");
  CHECK(error_pointer(R"({"r": {"$type": "string", "name": "x"}})") == "/r");
  CHECK_THAT(error_text(R"({"r": {"$type": "string", "name": "x"}})"), Catch::Contains("$eq"));
  // Literal $ keys are fine inside $eq, and a valid matcher passes.
  CHECK_NOTHROW(check_matcher(json::parse(R"({"$eq": {"$type": 1, "plain": 2}})")));
  CHECK_NOTHROW(check_matcher(json::parse(
      R"({"id": 1, "result": {"tools": {"$each": {"name": {"$type": "string"}}, "$len": {"$gte": 1}}, "x": {"$absent": true}}})")));
}

TEST_CASE("match() rejects a malformed matcher instead of guessing", "[matcher]") {
  CHECK_THROWS_AS(match(json::parse(R"({"a": {"$typo": 1}})"), json::parse(R"({"a": 1})")), MatcherError);
  CHECK_THROWS_AS(match(json::parse(R"({"$regex": "("})"), json("x")), MatcherError);
}

TEST_CASE("operator arguments holding ${...} wait for substitution", "[matcher]") {
  // The loader checks matchers before substitution; match() sees the substituted value.
  CHECK_NOTHROW(check_matcher(json::parse(R"({"$len": "${count}"})")));
  CHECK_NOTHROW(check_matcher(json::parse(R"({"$regex": "^${prefix}"})")));
  CHECK_NOTHROW(check_matcher(json::parse(R"({"$in": "${versions}"})")));
  CHECK_NOTHROW(check_matcher(json::parse(R"({"$increasing": "${ptr}"})")));
  CHECK(error_pointer(R"({"$lenn": "${count}"})") == "/$lenn");  // unknown operators are still wrong
  CHECK_THROWS_AS(match(json::parse(R"({"$len": "${count}"})"), json::array()), MatcherError);
  CHECK_THROWS_AS(match(json::parse(R"({"$increasing": "${ptr}"})"), json::array()), MatcherError);
}

TEST_CASE("$for_each_key is built at substitution: before it only its value is checked", "[matcher]") {
  CHECK_NOTHROW(check_matcher(json::parse(
      R"({"inputRequests": {"$for_each_key": {"of": "${poll.result.inputRequests}", "value": {"$absent": true}}}})")));
  CHECK(error_pointer(R"({"a": {"$for_each_key": {"of": {}, "value": {"$bogus": 1}}}})") == "/a/$for_each_key/value/$bogus");
  // Left unsubstituted, it is no operator match() knows.
  CHECK_THROWS_AS(match(json::parse(R"({"$for_each_key": {"of": {}, "value": 1}})"), json::object()), MatcherError);
}

TEST_CASE("nesting depth is guarded in matchers and values", "[matcher]") {
  json deep = 1;
  for (int i = 0; i < 300; ++i) deep = json{{"a", deep}};
  CHECK_THROWS_AS(check_matcher(deep), MatcherError);
  CHECK_THROWS_AS(match(deep, deep), MatcherError);
  json deep_not = json{{"$type", "string"}};
  for (int i = 0; i < 300; ++i) deep_not = json{{"$not", deep_not}};
  CHECK_THROWS_AS(check_matcher(deep_not), MatcherError);
  // A deep value is compared without recursing past the limit.
  json value = 1;
  for (int i = 0; i < 3000; ++i) value = json::array({std::move(value)});
  // Too deep to compare is undecided: the two may well be equal.
  auto r = match(json{{"$eq", value}}, value);
  CHECK_FALSE(r.ok);
  CHECK(r.mismatches.empty());
  REQUIRE(r.undecided.size() == 1);
  CHECK_THAT(r.undecided[0], Catch::Contains("too deep"));
  CHECK_FALSE(match(json{{"$type", "string"}}, value).ok);  // printing it is bounded too
  auto unique = match(json{{"$unique", ""}}, json::array({value, value}));
  CHECK_FALSE(unique.ok);
  CHECK(unique.mismatches.empty());
  CHECK_THAT(unique.undecided.at(0), Catch::Contains("too deep"));
}

// Each $regex stays under kMaxRegexWork, and all of one match() together under
// kMaxRegexWorkShared: a server chooses how many strings an $each or an "items" schema looks at.
TEST_CASE("the regex work of one match is bounded as a whole", "[matcher]") {
  const std::string pattern = "a{100}";
  const std::size_t length = 20000;  // 'b's: cheap to scan, but counted at states x length
  const std::size_t per_string = mcpspec::compiled_regex(pattern)->states * length;
  REQUIRE(per_string <= mcpspec::kMaxRegexWork);
  const std::size_t fit = mcpspec::kMaxRegexWorkShared / per_string;
  auto strings = [&](std::size_t n) { return json(std::vector<std::string>(n, std::string(length, 'b'))); };

  const json none_match = {{"$each", {{"$not", {{"$regex", pattern}}}}}};
  CHECK(match(none_match, strings(fit)).ok);
  auto over = match(none_match, strings(fit + 1));
  REQUIRE_FALSE(over.ok);
  CHECK(over.mismatches.empty());
  REQUIRE(over.undecided.size() == 1);
  CHECK_THAT(over.undecided[0], Catch::StartsWith("/" + std::to_string(fit) + ":") &&
                                    Catch::Contains("used up its regex work"));
  // A mismatch still decides, and a schema's "pattern" draws on the same budget.
  CHECK_FALSE(match({{"$allOf", {none_match, {{"$len", 0}}}}}, strings(fit + 1)).mismatches.empty());
  const json schema = {{"$conformsTo", {{"items", {{"not", {{"pattern", pattern}}}}}}}};
  CHECK(match(schema, strings(fit)).ok);
  auto schema_over = match(schema, strings(fit + 1));
  CHECK(schema_over.mismatches.empty());
  REQUIRE_FALSE(schema_over.undecided.empty());
  CHECK_THAT(schema_over.undecided[0], Catch::Contains("used up its regex work"));
  auto both = match({{"$allOf", {none_match, schema}}}, strings(fit));
  CHECK(both.mismatches.empty());
  CHECK_FALSE(both.undecided.empty());
}
