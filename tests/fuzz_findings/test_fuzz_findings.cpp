// Harness bugs the fuzz targets (fuzz/targets/) found, one test each, so the fix stays fixed even
// where the fuzz regression runners are not built. The crashing inputs themselves are replayed by
// the ctest fuzz/regress/<target>.
#include "harness/protocol/json_depth.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/util/bounded_regex.hpp"
#include "harness/jsonschema/compiled_schema.hpp"
#include "harness/scenario/session.hpp"
#include "harness/transport/line_framer.hpp"
#include "harness/transport/transport.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <regex>
#include <string>

using mcpspec::transport::LineFramer;

TEST_CASE("fuzz finding: an oversize line keeps the same prefix however it was read", "[fuzz][framer]") {
  // message_parser_fuzz: with a 16-byte limit a 400-byte line kept 256 bytes when read at once
  // but 17 when read byte by byte, so the report depended on pipe timing.
  std::string line;
  for (int i = 0; i < 400; ++i) line += static_cast<char>('a' + i % 26);
  LineFramer whole(16);
  whole.feed(line + "\n");
  LineFramer bytewise(16);
  for (char c : line + "\n") bytewise.feed(std::string_view(&c, 1));
  LineFramer unterminated(16);  // no newline: the prefix is complete at finish() as well
  for (char c : line) unterminated.feed(std::string_view(&c, 1));
  unterminated.finish();
  for (LineFramer* f : {&whole, &bytewise, &unterminated}) {
    REQUIRE(f->has_frame());
    auto fr = f->pop();
    CHECK(fr.oversize);
    CHECK(fr.length == 400);
    CHECK(fr.text == line.substr(0, 256));
    CHECK_FALSE(f->has_frame());
  }
}

// ---------------------------------------------------------------------------------------------
// message_parser_fuzz: a frame nested 100000 levels deep (200 KB, well under the frame limit)
// parsed fine, then crashed the harness (SIGSEGV) the first time the value was serialized or
// copied, e.g. `mcpspec run` against a server answering tools/list with such a result.

using mcpspec::protocol::json_nests_deeper_than;

TEST_CASE("fuzz finding: nesting depth is measured without parsing", "[fuzz][depth]") {
  CHECK_FALSE(json_nests_deeper_than("{}", 1));
  CHECK(json_nests_deeper_than("[[]]", 1));
  CHECK_FALSE(json_nests_deeper_than("[[]]", 2));
  // Brackets inside strings, escaped quotes included, are text.
  CHECK_FALSE(json_nests_deeper_than(R"({"a":"[[[[\"[[[["})", 1));
  CHECK(json_nests_deeper_than(R"({"a":"\\",
  "b":[1]})", 1));
  // Siblings do not add up; closing brackets of malformed text never go below zero.
  CHECK_FALSE(json_nests_deeper_than("[][][][]]]]]][", 1));
  std::string deep = std::string(mcpspec::protocol::kMaxJsonDepth, '[') + std::string(mcpspec::protocol::kMaxJsonDepth, ']');
  CHECK_FALSE(json_nests_deeper_than(deep));
  CHECK(json_nests_deeper_than("[" + deep + "]"));
}

namespace {

// Delivers scripted frames, then nothing.
class ScriptedTransport : public mcpspec::transport::Transport {
 public:
  explicit ScriptedTransport(std::deque<std::string> frames) : frames_(std::move(frames)) {}
  std::string name() const override { return "scripted"; }
  void start() override {}
  void send(const std::string&, mcpspec::Deadline) override {}
  void send_raw(const std::string&, mcpspec::Deadline) override {}
  mcpspec::transport::Event receive(mcpspec::Deadline) override {
    mcpspec::transport::Event e;
    if (frames_.empty()) return e;  // Timeout
    e.type = mcpspec::transport::Event::Type::Frame;
    e.text = frames_.front();
    frames_.pop_front();
    return e;
  }
  void close_input() override {}
  void signal(int) override {}
  std::optional<mcpspec::transport::ExitStatus> exit_status() override { return std::nullopt; }
  void stop() override {}
  std::string describe() const override { return "scripted frames"; }

 private:
  std::deque<std::string> frames_;
};

}  // namespace

TEST_CASE("fuzz finding: the session refuses a frame nested deeper than the limit", "[fuzz][depth]") {
  const std::size_t depth = 100000;
  std::string deep = R"({"jsonrpc":"2.0","id":1,"result":{"tools":)" + std::string(depth, '[') + std::string(depth, ']') + "}}";
  mcpspec::scenario::Scenario scenario;
  mcpspec::ScenarioResult result;
  mcpspec::scenario::Session session(scenario, mcpspec::scenario::SessionConfig{}, result, mcpspec::Clock::now());
  session.attach(std::make_unique<ScriptedTransport>(
      std::deque<std::string>{deep, R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after"}})"}));
  session.wait_until(mcpspec::Deadline::after_ms(200));
  // The deep frame is logged and refused; the next frame still arrives.
  REQUIRE(session.inbox().size() == 1);
  CHECK(session.inbox().front().json["params"]["data"] == "after");
  bool noted = false;
  for (const auto& w : result.wire)
    if (w.dir == mcpspec::WireEntry::Dir::Event && w.text.find("nested deeper than 512") != std::string::npos)
      noted = true;
  CHECK(noted);
}

// ---------------------------------------------------------------------------------------------
// matcher_fuzz: {"$regex": "(a+)+$"} against 27 a's and a b ran for over a minute (libFuzzer
// timeout): libstdc++'s backtracking executor is exponential on nested quantifiers.

namespace {
double seconds_to_match(const nlohmann::json& matcher, const nlohmann::json& value, bool& ok) {
  auto t0 = std::chrono::steady_clock::now();
  ok = mcpspec::scenario::match(matcher, value).ok;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

TEST_CASE("fuzz finding: $regex runs in bounded time on backtracking bombs", "[fuzz][regex]") {
  const std::string subject = std::string(8000, 'a') + "b";
  for (const char* bomb : {"(a+)+$", "(a|aa)*c", "(x|a*)*y", "((((a*)*)*)*)*c"}) {
    bool ok = true;
    double secs = seconds_to_match({{"$regex", bomb}}, subject, ok);
    INFO(bomb << " took " << secs << " s");
    CHECK(secs < 2.0);  // was exponential: minutes for 28 characters
    CHECK_FALSE(ok);  // none of them occurs in the subject
  }
}

TEST_CASE("fuzz finding: $regex keeps search semantics", "[fuzz][regex]") {
  auto found = [](const char* pattern, const char* text) {
    return mcpspec::scenario::match({{"$regex", pattern}}, text).ok;
  };
  CHECK(found("b+", "abbbc"));
  CHECK_FALSE(found("^b+$", "abbbc"));
  CHECK(found("c$", "abc"));
  CHECK_FALSE(found("^b", "abc"));
  CHECK(found("^a|x$", "abc"));  // top-level alternation stays one alternative of the whole
  CHECK(found("a\\nb", "a\nb"));
  CHECK(found("line2$", "line1\nline2"));
  CHECK(found("(?=b)bc", "abc"));
}

TEST_CASE("fuzz finding: $regex refuses back-references and over-costly patterns clearly", "[fuzz][regex]") {
  // Back-references need backtracking: rejected when the scenario is loaded.
  CHECK_THROWS_AS(mcpspec::scenario::check_matcher({{"$regex", "(a)\\1"}}), mcpspec::scenario::MatcherError);
  // A pattern wrapped into a valid one must still be invalid on its own.
  CHECK_THROWS_AS(mcpspec::scenario::check_matcher({{"$regex", "a)(b"}}), mcpspec::scenario::MatcherError);
  // Counted repetitions multiply the automaton: too costly on a long string, fine on a short one.
  // Undecided, not a mismatch: the string may well match.
  auto long_result = mcpspec::scenario::match({{"$regex", "a{4000}"}}, std::string(8000, 'a'));
  REQUIRE_FALSE(long_result.ok);
  CHECK(long_result.mismatches.empty());
  REQUIRE(long_result.undecided.size() == 1);
  CHECK_THAT(long_result.undecided.front(), Catch::Contains("too costly"));
  CHECK(mcpspec::scenario::match({{"$regex", "a{1000}"}}, std::string(1000, 'a')).ok);
}

// matcher campaign (2026-11-25, round 9): "(a-32002|||||}|.||||)+{2001}$" ran 1 s in Release (7.6 s
// in the fuzz build, over the target's 5 s). libstdc++ applies "{2001}" to the quantified group;
// the cost estimate counted 2001 single states and let it run on a long string.
TEST_CASE("fuzz finding: a quantifier after a quantifier multiplies the whole piece in the cost estimate",
          "[fuzz][regex]") {
  CHECK(mcpspec::compiled_regex("(abcd|efgh)+{100}")->states >= 100 * 10);
  CHECK(mcpspec::compiled_regex("(abcd|efgh)*?{100}")->states >= 100 * 10);
  CHECK(mcpspec::compiled_regex("(abcd|efgh){100}")->states >= 100 * 10);
  CHECK(mcpspec::compiled_regex("x+")->states < 10);
  auto r = mcpspec::scenario::match({{"$regex", "(a-32002|||||}|.||||)+{2001}$"}}, std::string(8000, 'a'));
  CHECK(r.mismatches.empty());
  REQUIRE(r.undecided.size() == 1);
  CHECK_THAT(r.undecided[0], Catch::Contains("too costly"));
}

// scenario_loader campaign (2026-11-25): a $regex of 17 390 plain characters overflowed the stack
// while libstdc++ compiled it (its compiler recurses once per term; 100 000 characters crash an
// optimized build too). Patterns longer than 2000 characters are refused with the reason.
TEST_CASE("fuzz finding: an over-long $regex pattern is refused, not compiled", "[fuzz][regex]") {
  const std::string too_long(100000, 'a');
  try {
    mcpspec::scenario::check_matcher({{"$regex", too_long}});
    FAIL("a 100 000-character pattern was accepted");
  } catch (const mcpspec::scenario::MatcherError& e) {
    CHECK_THAT(e.what(), Catch::Contains("100000 characters long; patterns are limited to 2000"));
  }
  // match() checks the matcher first, so it refuses the pattern the same way.
  CHECK_THROWS_WITH(mcpspec::scenario::match({{"$regex", too_long}}, std::string("aaa")),
                    Catch::Contains("patterns are limited to 2000"));
  CHECK(mcpspec::scenario::match({{"$regex", std::string(2000, 'a')}}, std::string(2000, 'a')).ok);
}

// matcher campaign (2026-11-25, round 8, UBSan): libstdc++ reads a back-reference number or a
// repetition count into a long without an overflow check; "\\22222222222222222222" overflowed it
// (undefined behaviour). Numbers of more than 9 digits are refused with the reason.
TEST_CASE("fuzz finding: a $regex number too long for libstdc++ is refused", "[fuzz][regex]") {
  for (const char* pattern : {R"(\22222222222222222222)", "a{22222222222222222222}", "a{1,22222222222222222222}"}) {
    INFO(pattern);
    try {
      mcpspec::scenario::check_matcher({{"$regex", pattern}});
      FAIL("accepted");
    } catch (const mcpspec::scenario::MatcherError& e) {
      CHECK_THAT(e.what(), Catch::Contains("a number of 20 digits") && Catch::Contains("at most 9"));
    }
  }
  // Long digit runs as plain text, an escaped backslash or inside a class are fine.
  CHECK(mcpspec::scenario::match({{"$regex", "^1700000000000123$"}}, std::string("1700000000000123")).ok);
  CHECK(mcpspec::scenario::match({{"$regex", R"(\\12345678901)"}}, std::string("\\12345678901")).ok);
  CHECK(mcpspec::scenario::match({{"$regex", "[{12345678901}]"}}, std::string("5")).ok);
  // Nine digits pass this check; libstdc++'s own state limit then refuses the repetition.
  CHECK_THROWS_WITH(mcpspec::scenario::match({{"$regex", "^a{999999999}$"}}, std::string("b")),
                    Catch::Contains("does not compile"));
}

// ---------------------------------------------------------------------------------------------
// message_parser_fuzz: json::parse throws out_of_range, not parse_error, for a number beyond a
// double ("-2e+308"). Session::on_frame caught only parse_error, so `mcpspec run` against a
// server answering {"tools":[1e999]} ended the scenario as a harness ERROR.

TEST_CASE("fuzz finding: a number beyond a double is reported, not a harness error", "[fuzz][number]") {
  mcpspec::scenario::Scenario scenario;
  mcpspec::ScenarioResult result;
  mcpspec::scenario::Session session(scenario, mcpspec::scenario::SessionConfig{}, result, mcpspec::Clock::now());
  session.attach(std::make_unique<ScriptedTransport>(std::deque<std::string>{
      R"({"jsonrpc":"2.0","id":1,"result":{"tools":[-2e+308]}})",
      R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after"}})"}));
  REQUIRE_NOTHROW(session.wait_until(mcpspec::Deadline::after_ms(200)));
  REQUIRE(session.inbox().size() == 1);
  CHECK(session.inbox().front().json["params"]["data"] == "after");
  bool noted = false;
  for (const auto& w : result.wire)
    if (w.dir == mcpspec::WireEntry::Dir::Event && w.text.find("could not be read") != std::string::npos) noted = true;
  CHECK(noted);
}

TEST_CASE("fuzz finding: a matcher error shows control characters instead of stopping at them", "[fuzz][matcher]") {
  // matcher_fuzz: the operator key "$\u0000" made a MatcherError whose what() (a C string) ended
  // at the NUL, before the message said what was wrong.
  try {
    mcpspec::scenario::check_matcher(nlohmann::json{{std::string("$\0x", 3), 0}});
    FAIL("an unknown operator was accepted");
  } catch (const mcpspec::scenario::MatcherError& e) {
    std::string what = e.what();
    CHECK(what.find('\0') == std::string::npos);
    CHECK_THAT(what, Catch::Contains("\\u0000x") && Catch::Contains("unknown operator"));
    CHECK(e.pointer() == std::string("/$\0x", 4));  // the pointer keeps the real key
  }
}

// matcher campaign (2026-11-25): {"$conformsTo": {"$ref": ""}} overflowed the stack in valijson's
// schema parser, which follows a reference that leads only to itself for ever. The schema can be
// a server's own tool outputSchema, so a server could crash mcpspec with it.
TEST_CASE("fuzz finding: a schema whose $ref leads only to itself is refused, not followed", "[fuzz][schema]") {
  using nlohmann::json;
  for (const json& schema : {json{{"$ref", ""}}, json{{"$ref", "#"}},
                             json{{"$ref", "#/definitions/a"},
                                  {"definitions", {{"a", {{"$ref", "#/definitions/b"}}}, {"b", {{"$ref", "#/definitions/a"}}}}}}}) {
    INFO(schema.dump());
    auto r = mcpspec::scenario::match({{"$conformsTo", schema}}, json(0));
    REQUIRE_FALSE(r.ok);
    CHECK_THAT(r.mismatches.front(), Catch::Contains("only leads back to itself"));
  }
  // Not a JSON Pointer into the schema (a relative URI, an anchor): refused, as valijson resolves
  // those against the same document and looped on {"$ref": "*"} too. Such a schema may be valid,
  // so the match is undecided, not a mismatch.
  for (const char* ref : {"*", "other.json", "#anchor"}) {
    auto r = mcpspec::scenario::match({{"$conformsTo", {{"$ref", ref}}}}, json(0));
    REQUIRE_FALSE(r.ok);
    CHECK(r.mismatches.empty());
    REQUIRE_FALSE(r.undecided.empty());
    CHECK_THAT(r.undecided.front(), Catch::Contains("$ref \"" + std::string(ref) + "\""));
  }
  // Base-URI keywords are dropped: with them valijson re-resolved "" on every level (round 7;
  // an optimized build crashed too). A property named "id" and data under const stay as they are.
  // {"$ref": ""} is the root, as "#" is: checked, not taken for a remote document.
  for (json with_id : {json{{"id", 1}, {"items", {{"$ref", ""}}}}, json{{"id", "x"}, {"items", {{"$ref", ""}}}}}) {
    INFO(with_id.dump());
    CHECK(mcpspec::scenario::match({{"$conformsTo", with_id}}, json::array({json::array()})).ok);
  }
  // valijson reads any id it can take for text as a base URI: true, a number, {} and [] too (round
  // 8: {"id": true, "items": {"$ref": ""}}). In a schema they are all dropped.
  for (const json& id : {json(true), json(2.5), json::object(), json::array()}) {
    json with_id = {{"id", id}, {"type", "array"}, {"items", {{"$ref", ""}}}};
    INFO(with_id.dump());
    CHECK(mcpspec::scenario::match({{"$conformsTo", with_id}}, json::array({json::array()})).ok);
    auto r = mcpspec::scenario::match({{"$conformsTo", with_id}}, json::array({json::array({1})}));
    REQUIRE_FALSE(r.ok);
    CHECK_THAT(r.mismatches.front(), Catch::Contains("/0/0"));
  }
  // The place decides, not the key: a property *named* "default" is a schema, so its id goes; a
  // reference must land on a schema, not on data or on a map of names, which valijson would then
  // read as a schema with the id still in it.
  json named_default = {{"properties", {{"default", {{"id", "x"}, {"items", {{"$ref", ""}}}}}}}};
  CHECK(mcpspec::scenario::match({{"$conformsTo", named_default}}, json{{"default", json::array({1})}}).ok);
  for (const json& schema : {json{{"$ref", "#/default"}, {"default", {{"id", "x"}, {"items", {{"$ref", ""}}}}}},
                             json{{"properties", {{"id", true}, {"items", {{"$ref", "#/properties"}}}}}},
                             json{{"id", {{"items", {{"$ref", ""}}}}}, {"$ref", "#/id"}}}) {
    INFO(schema.dump());
    auto r = mcpspec::scenario::match({{"$conformsTo", schema}}, json::array({1}));
    REQUIRE_FALSE(r.ok);
    CHECK_THAT(r.mismatches.front(), Catch::Contains("leads to a value that is not a schema"));
  }
  // A property named "id" keeps its schema, false included.
  json id_forbidden = {{"type", "object"}, {"properties", {{"id", false}}}};
  CHECK(mcpspec::scenario::match({{"$conformsTo", id_forbidden}}, json::object()).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", id_forbidden}}, json{{"id", 1}}).ok);
  // References into definitions and into items still work.
  json via_definitions = {{"definitions", {{"id", {{"type", "string"}}}}}, {"items", {{"$ref", "#/definitions/id"}}}};
  CHECK(mcpspec::scenario::match({{"$conformsTo", via_definitions}}, json::array({"a"})).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", via_definitions}}, json::array({1})).ok);
  // valijson's parser recurses once per nested schema: 300 nested "items" overflowed the stack
  // under ASan. At most 128 are accepted, counting what references add.
  auto nested_items = [](std::size_t levels, json inner) {
    for (std::size_t i = 0; i < levels; ++i) inner = json{{"items", inner}};
    return inner;
  };
  CHECK(mcpspec::scenario::match({{"$conformsTo", nested_items(127, json::object())}}, json::array()).ok);
  for (const json& schema : {nested_items(128, json::object()),
                             // 4 definitions of 40 levels, each leading to the next: 160 in all.
                             [&] {
                               json defs = json::object();
                               for (int i = 0; i < 4; ++i)
                                 defs["d" + std::to_string(i)] =
                                     nested_items(39, i == 3 ? json::object() : json{{"$ref", "#/definitions/d" + std::to_string(i + 1)}});
                               return json{{"definitions", defs}, {"$ref", "#/definitions/d0"}};
                             }()}) {
    auto r = mcpspec::scenario::match({{"$conformsTo", schema}}, json::array());
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.mismatches.empty());
    CHECK_THAT(r.undecided.front(), Catch::Contains("at most 128 are supported"));
  }
  // valijson's validator recurses once per schema it applies. A schema applying itself to the
  // same value again loops for ever; a long enough chain per level times a deep value overflowed
  // the stack of an optimized build (100 nested allOf per level, a value 500 deep).
  for (const char* text : {R"({"allOf": [{"$ref": "#"}]})", R"({"not": {"$ref": "#"}})",
                           R"({"$ref": "#/definitions/a", "definitions": {"a": {"anyOf": [{"type": "string"}, {"$ref": "#"}]}}})"}) {
    json schema = json::parse(text);
    INFO(text);
    auto r = mcpspec::scenario::match({{"$conformsTo", schema}}, json(0));
    REQUIRE_FALSE(r.ok);
    CHECK_THAT(r.mismatches.front(), Catch::Contains("an endless loop"));
  }
  auto nested_arrays = [](std::size_t depth) {
    json v = json::array();
    for (std::size_t i = 1; i < depth; ++i) v = json::array({v});
    return v;
  };
  json per_level_100 = {{"$ref", "#"}};
  for (int i = 0; i < 100; ++i) per_level_100 = json{{"allOf", json::array({per_level_100})}};
  auto deep = mcpspec::scenario::match({{"$conformsTo", {{"items", per_level_100}}}}, nested_arrays(500));
  REQUIRE_FALSE(deep.ok);
  REQUIRE(deep.mismatches.empty());
  CHECK_THAT(deep.undecided.front(), Catch::Contains("nested 500 deep") && Catch::Contains("at most 2048"));
  // A tree schema applies 2 schemas per level: a value 500 deep is checked, one 1100 deep is not.
  json tree_of_arrays = {{"type", "array"}, {"items", {{"$ref", "#"}}}};
  CHECK(mcpspec::scenario::match({{"$conformsTo", tree_of_arrays}}, nested_arrays(500)).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", tree_of_arrays}}, json::array({nested_arrays(499), 1})).ok);
  auto too_deep = mcpspec::scenario::match({{"$conformsTo", tree_of_arrays}}, nested_arrays(1100));
  REQUIRE_FALSE(too_deep.ok);
  REQUIRE(too_deep.mismatches.empty());
  CHECK_THAT(too_deep.undecided.front(), Catch::Contains("cannot check against the given schema"));
  // valijson matched "pattern" with std::regex's backtracking executor: exponential on (a+)+$ (a
  // server's outputSchema kept mcpspec busy for minutes), a stack overflow on a long string. It is
  // checked with bounded_regex instead; patternProperties is refused; date formats are dropped.
  auto pattern_result = mcpspec::scenario::match({{"$conformsTo", {{"pattern", "(a+)+$"}}}}, std::string(30, 'a') + "b");
  REQUIRE_FALSE(pattern_result.ok);
  CHECK_THAT(pattern_result.mismatches.front(), Catch::Contains("does not match the pattern"));
  CHECK(mcpspec::scenario::match({{"$conformsTo", {{"pattern", "(a+)+$"}}}}, std::string(30, 'a')).ok);
  CHECK(mcpspec::scenario::match({{"$conformsTo", {{"pattern", "^b*a$"}}}}, std::string(200000, 'b') + "a").ok);
  CHECK(mcpspec::scenario::match({{"$conformsTo", {{"pattern", "^[0-9]+$"}}}}, std::string("123")).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", {{"pattern", "^[0-9]+$"}}}}, std::string("12a")).ok);
  CHECK(mcpspec::scenario::match({{"$conformsTo", {{"pattern", "^[0-9]+$"}}}}, json(12)).ok);  // only strings
  CHECK(mcpspec::scenario::match({{"$conformsTo", {{"format", "date"}}}}, std::string(200000, '1')).ok);
  auto bad_pattern = mcpspec::scenario::match({{"$conformsTo", {{"pattern", "(\\1)"}}}}, std::string("x"));
  REQUIRE_FALSE(bad_pattern.ok);
  REQUIRE(bad_pattern.mismatches.empty());
  CHECK_THAT(bad_pattern.undecided.front(), Catch::Contains("cannot check against the given schema"));
  auto pattern_properties = mcpspec::scenario::match({{"$conformsTo", {{"patternProperties", {{"^x", json::object()}}}}}}, json::object());
  REQUIRE_FALSE(pattern_properties.ok);
  REQUIRE(pattern_properties.mismatches.empty());
  CHECK_THAT(pattern_properties.undecided.front(), Catch::Contains("patternProperties is not supported"));
  json named_pattern = {{"properties", {{"pattern", {{"type", "string"}}}}}};
  CHECK(mcpspec::scenario::match({{"$conformsTo", named_pattern}}, json{{"pattern", "x"}}).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", named_pattern}}, json{{"pattern", 5}}).ok);
  json with_dollar_id = {{"$id", "x"}, {"type", "array"}, {"items", {{"$ref", "#"}}}};
  CHECK(mcpspec::scenario::match({{"$conformsTo", with_dollar_id}}, json::array({json::array()})).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", with_dollar_id}}, json::array({4})).ok);
  json named_id = {{"type", "object"}, {"properties", {{"id", {{"type", "string"}}}}}, {"required", {"id"}},
                   {"not", {{"const", {{"id", "forbidden"}}}}}};
  CHECK(mcpspec::scenario::match({{"$conformsTo", named_id}}, json{{"id", "ok"}}).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", named_id}}, json{{"id", 5}}).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", named_id}}, json{{"id", "forbidden"}}).ok);
  // A recursive schema through structure (a tree) is fine.
  json tree = {{"type", "object"}, {"properties", {{"children", {{"type", "array"}, {"items", {{"$ref", "#"}}}}}}}};
  CHECK(mcpspec::scenario::match({{"$conformsTo", tree}}, json{{"children", {{{"children", json::array()}}}}}).ok);
  CHECK_FALSE(mcpspec::scenario::match({{"$conformsTo", tree}}, json{{"children", {1}}}).ok);
}

// matcher campaign (2026-11-26, coverage-only build): {"$conformsTo": {"items": {"multipleOf": 0}}}
// against [1] raised SIGFPE. valijson divides by an integer multipleOf as an int64_t, unchecked
// (x % 0; INT64_MIN % -1), and reads an unsigned integer above INT64_MAX, divisor or value, as a
// negative one. A server's tool outputSchema could kill mcpspec with it.
TEST_CASE("fuzz finding: multipleOf is checked exactly, without valijson's integer division", "[fuzz][schema]") {
  using nlohmann::json;
  auto conforms = [](const json& schema, const json& value) {
    return mcpspec::scenario::match({{"$conformsTo", schema}}, value);
  };
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  constexpr auto kMaxUnsigned = std::numeric_limits<std::uint64_t>::max();
  // Not a number greater than 0: broken JSON Schema whoever checks it, so a mismatch.
  for (const json& divisor : {json(0), json(-1), json(0.0), json(-0.0), json(-2.5), json("2"), json(nullptr)}) {
    INFO(divisor.dump());
    auto r = conforms({{"items", {{"multipleOf", divisor}}}}, json::array({1, kMin}));
    REQUIRE_FALSE(r.ok);
    REQUIRE_FALSE(r.mismatches.empty());
    CHECK_THAT(r.mismatches.front(), Catch::Contains("multipleOf must be a number greater than 0"));
  }
  // An integer divisor above INT64_MAX (valid JSON Schema) would wrap, 2^64-1 to -1: undecided.
  auto huge_divisor = conforms({{"multipleOf", kMaxUnsigned}}, json(kMin));
  REQUIRE_FALSE(huge_divisor.ok);
  REQUIRE(huge_divisor.mismatches.empty());
  CHECK_THAT(huge_divisor.undecided.front(), Catch::Contains("2^63-1"));
  // So would a value above INT64_MAX: 2^64-1 is a multiple of 5, its wrapped -1 is not. Undecided,
  // never a FAIL of a server that is right.
  auto huge_value = conforms({{"items", {{"multipleOf", 5}}}}, json::array({10, kMaxUnsigned}));
  REQUIRE_FALSE(huge_value.ok);
  REQUIRE(huge_value.mismatches.empty());
  CHECK_THAT(huge_value.undecided.front(), Catch::Contains("18446744073709551615"));
  // Within those limits multipleOf is checked as before, integers and fractions, both ways.
  CHECK(conforms({{"multipleOf", 5}}, json(10)).ok);
  CHECK(conforms({{"multipleOf", 1}}, json(kMin)).ok);
  CHECK(conforms({{"multipleOf", 5}}, json(std::uint64_t{9223372036854775805u})).ok);
  CHECK(conforms({{"multipleOf", 2.5}}, json(7.5)).ok);
  auto eleven = conforms({{"multipleOf", 5}}, json(11));
  REQUIRE_FALSE(eleven.ok);
  CHECK(eleven.undecided.empty());
  CHECK_FALSE(conforms({{"multipleOf", 2.5}}, json(7)).ok);
  CHECK_THAT(eleven.mismatches.front(), Catch::Contains("is not a multiple of 5"));
  // valijson truncated a fractional value before dividing by an integer (10.5 passed multipleOf 5;
  // 1e300 was undefined behaviour) and read numeric strings ("7" failed multipleOf 5). Now exact:
  CHECK_FALSE(conforms({{"multipleOf", 5}}, json(10.5)).ok);
  CHECK(conforms({{"multipleOf", 5}}, json(10.0)).ok);
  // The double nearest 1e300 is an integer divisible by 3 and by 2^946, not by 7.
  CHECK(conforms({{"multipleOf", 3}}, json(1e300)).ok);
  CHECK(conforms({{"multipleOf", std::int64_t{1} << 62}}, json(1e300)).ok);
  auto not_multiple = conforms({{"multipleOf", 7}}, json(1e300));
  REQUIRE_FALSE(not_multiple.ok);
  CHECK(not_multiple.undecided.empty());
  CHECK(conforms({{"multipleOf", 5}}, json("7")).ok);  // multipleOf says nothing about strings
  CHECK(conforms({{"multipleOf", 2.5}}, json("7")).ok);
  CHECK(conforms({{"multipleOf", 0.1}}, json(0.3)).ok);  // within a double's epsilon, as valijson has it
  CHECK_FALSE(conforms({{"multipleOf", 0.1}}, json(0.35)).ok);
  // Every numeric comparison wraps the same way (2^64-1 "below" minimum 0): undecided too, and a
  // large value is no problem where the schema compares no numbers.
  for (const json& schema : {json{{"minimum", 0}}, json{{"maximum", 1}}, json{{"const", -1}}, json{{"enum", {-1, 2}}},
                             json{{"uniqueItems", true}}}) {
    INFO(schema.dump());
    auto r = conforms({{"items", schema}}, json::array({kMaxUnsigned}));
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.mismatches.empty());
    CHECK_THAT(r.undecided.front(), Catch::Contains("above 2^63-1"));
  }
  CHECK(conforms({{"type", "array"}, {"items", {{"type", "integer"}}}}, json::array({kMaxUnsigned})).ok);
  // The same integers in a schema: maxLength 2^64-1 was refused as negative (a false "not usable"),
  // minimum 2^64-1 let 5 pass. Undecided wherever valijson reads them; annotations are free.
  for (const json& schema : {json{{"maxLength", kMaxUnsigned}}, json{{"minimum", kMaxUnsigned}},
                             json{{"properties", {{"a", {{"const", {{"n", kMaxUnsigned}}}}}}}},
                             json{{"items", {{"enum", {1, kMaxUnsigned}}}}}}) {
    INFO(schema.dump());
    auto r = conforms(schema, json(5));
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.mismatches.empty());
    CHECK_THAT(r.undecided.front(), Catch::Contains("the schema holds the integer 18446744073709551615"));
  }
  CHECK(conforms({{"type", "integer"}, {"default", kMaxUnsigned}, {"examples", {kMaxUnsigned}}}, json(5)).ok);
  CHECK(conforms({{"properties", {{"a", {{"default", kMaxUnsigned}}}}}}, json{{"a", 1}}).ok);
  CHECK(conforms({{"minimum", 0}}, json(std::uint64_t{9223372036854775807u})).ok);
}

// matcher campaign (2026-11-26, round 13, time invariant): libstdc++ gives up on "a{1000000}" only
// after building its state limit, and the refusal was not cached, so a $conformsTo "pattern"
// under $contains paid for it once per element. A refusal is now kept: it must come back as the
// same exception, however often the pattern is asked for. (The time itself is guarded by the
// input matcher/conforms-to-refused-pattern-per-element under the fuzz build's time invariant.)
TEST_CASE("fuzz finding: a pattern libstdc++ refuses is refused the same way every time", "[fuzz][regex]") {
  auto refusal = [] {
    try {
      mcpspec::compiled_regex("a{1000000}");
    } catch (const std::regex_error& e) {
      return std::make_pair(e.code(), std::string(e.what()));
    }
    return std::make_pair(std::regex_constants::error_type{}, std::string("compiled"));
  };
  const auto first = refusal();
  REQUIRE(first.second != "compiled");
  for (int i = 0; i < 3; ++i) CHECK(refusal() == first);
  auto r = mcpspec::scenario::match({{"$contains", {{"$conformsTo", {{"pattern", "a{1000000}"}}}}}},
                                    nlohmann::json::array({"a", "b"}));
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.mismatches.empty());
  CHECK_THAT(r.undecided.front(), Catch::Contains("cannot be checked"));
}

namespace {

nlohmann::json nested_arrays(int levels, const nlohmann::json& innermost) {
  nlohmann::json v = innermost;
  for (int i = 0; i < levels; ++i) v = nlohmann::json::array({v});
  return v;
}

}  // namespace

// matcher campaign (2026-11-26, round 14, sanitizer build, time invariant): 4 s in Release for a
// 2.8 KB input. A oneOf that applies the whole schema again to each item, against a value nested
// 250 deep: valijson copies every error found under a oneOf (or anyOf, or if) up into its caller's
// results, each with its path, on every level: cubic (500 deep: 6 s). Looking further: a schema
// applying two schemas of itself to each item doubles the work per level (a 100-byte value took
// 30 s and 2 GB), whether or not errors are collected. Both come from a server's tool outputSchema
// as easily as from a scenario.
TEST_CASE("fuzz finding: schema work per value is bounded before valijson runs", "[fuzz][schema]") {
  using nlohmann::json;
  auto conforms = [](const json& schema, const json& value) {
    return mcpspec::scenario::match({{"$conformsTo", schema}}, value);
  };
  // Two schemas of itself per item: 3 x 2^levels applications. Refused (undecided), never run.
  json doubling = json::parse(R"({"type": "array", "items": {"anyOf": [{"$ref": "#"}, {"$ref": "#"}]}})");
  auto deep = conforms(doubling, nested_arrays(24, 3));
  REQUIRE_FALSE(deep.ok);
  REQUIRE(deep.mismatches.empty());
  REQUIRE_FALSE(deep.undecided.empty());
  CHECK_THAT(deep.undecided.front(), Catch::Contains("schema applications"));
  // Shallow, the same schema is checked as before, both ways.
  CHECK(conforms(doubling, nested_arrays(4, json::array())).ok);
  auto shallow = conforms(doubling, nested_arrays(4, 3));
  REQUIRE_FALSE(shallow.ok);
  CHECK(shallow.undecided.empty());
  // The same doubling along a chain of definitions, on a single number.
  json defs = {{"d0", {{"type", "integer"}}}};
  for (int i = 1; i <= 24; ++i) {
    json ref = {{"$ref", "#/definitions/d" + std::to_string(i - 1)}};
    defs["d" + std::to_string(i)] = {{"allOf", {ref, ref}}};
  }
  auto chain = conforms({{"definitions", defs}, {"$ref", "#/definitions/d24"}}, json(5));
  REQUIRE_FALSE(chain.ok);
  REQUIRE(chain.mismatches.empty());
  CHECK_THAT(chain.undecided.front(), Catch::Contains("schema applications"));
  auto small_chain = conforms({{"definitions", defs}, {"$ref", "#/definitions/d4"}}, json(5));
  INFO((small_chain.mismatches.empty() ? std::string() : small_chain.mismatches.front()));
  CHECK(small_chain.ok);

  // oneOf (anyOf, if) re-applying the schema per item: deciding is linear, explaining cubic. Deep,
  // the value does not conform and says so, without the details.
  json again = json::parse(R"({"items": {"oneOf": [{"type": "string"}, {"$ref": "#"}], "type": "object"}})");
  auto cubic = conforms(again, json::array({nested_arrays(500, 3)}));
  REQUIRE_FALSE(cubic.ok);
  CHECK(cubic.undecided.empty());
  REQUIRE(cubic.mismatches.size() == 1);
  CHECK_THAT(cubic.mismatches.front(), Catch::Contains("which parts do not is not worked out"));
  // Shallow, the details are there: the deepest issue first.
  auto detailed = conforms(again, json::array({nested_arrays(3, 3)}));
  REQUIRE_FALSE(detailed.ok);
  REQUIRE_FALSE(detailed.mismatches.empty());
  CHECK_THAT(detailed.mismatches.front(), Catch::Contains("/0/0/0/0"));
  CHECK_THAT(detailed.mismatches.front(), !Catch::Contains("not worked out"));
  // A tree schema (one schema per part) stays cheap at any depth the stack allows.
  json tree = {{"type", "array"}, {"items", {{"$ref", "#"}}}};
  CHECK(conforms(tree, nested_arrays(1000, json::array())).ok);
}

// The bound holds over a whole match(): many values, each cheap enough, share one budget, as
// its regexes do.
TEST_CASE("fuzz finding: the schema checks of one match share one work budget", "[fuzz][schema]") {
  using nlohmann::json;
  // About 3 x 2^12 applications per number.
  json defs = {{"d0", {{"type", "integer"}}}};
  for (int i = 1; i <= 12; ++i) {
    json ref = {{"$ref", "#/definitions/d" + std::to_string(i - 1)}};
    defs["d" + std::to_string(i)] = {{"allOf", {ref, ref}}};
  }
  json schema = {{"definitions", defs}, {"$ref", "#/definitions/d12"}};
  json few = json::array(), many = json::array();
  for (int i = 0; i < 10; ++i) few.push_back(i);
  for (int i = 0; i < 400; ++i) many.push_back(i);
  CHECK(mcpspec::scenario::match({{"$each", {{"$conformsTo", schema}}}}, few).ok);
  auto r = mcpspec::scenario::match({{"$each", {{"$conformsTo", schema}}}}, many);
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.mismatches.empty());
  CHECK_THAT(r.undecided.front(), Catch::Contains("used up its schema work"));
  // The same through CompiledSchema with a budget of one's own.
  mcpspec::CompiledSchema compiled(schema);
  mcpspec::ValidationBudget budget;
  budget.schema_work = 100;
  CHECK_THROWS_AS(compiled.validate(json(1), 8, &budget), mcpspec::SchemaBeyondLimits);
  CHECK(compiled.validate(json(1)).empty());
  CHECK_FALSE(compiled.validate(json("x")).empty());
}
