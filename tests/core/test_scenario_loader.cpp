// The scenario loader: what a valid file becomes, and that every kind of broken file is reported
// as "file: /pointer: message" with the pointer at the fault, without stopping the other files.
#include "tests/core/core_support.hpp"

#include "harness/scenario/loader.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

using namespace mcpspec;
using namespace mcpspec::scenario;
using mcpspec::coretest::ScenarioDir;
using mcpspec::coretest::TempDir;
using nlohmann::json;

namespace {

// A minimal valid scenario with `extra` merged into its top level.
std::string scenario_text(const json& extra = json::object(), const std::string& id = "core/loader/minimal") {
  json doc = {{"id", id},
              {"title", "a minimal scenario"},
              {"role", "server"},
              {"requirements", {"PING-01"}},
              {"level", "MUST"},
              {"fixture", "none"},
              {"steps", json::parse(R"([{"request": {"method": "ping"}}])")}};
  for (auto& [k, v] : extra.items()) {
    if (v.is_null()) doc.erase(k);
    else doc[k] = v;
  }
  return doc.dump(2);
}

std::string with_steps(const std::string& steps_json) {
  return scenario_text(json{{"steps", json::parse(steps_json)}});
}

std::string all_errors(const LoadOutcome& out) {
  std::string s;
  for (const auto& e : out.errors) s += e.text() + "\n";
  return s;
}

// The single error a text produces (fails the test when it loads or has several errors).
LoadError only_error(const std::string& text, const std::string& file = "/virtual/dir/bad.json") {
  auto out = load_scenario_text(text, file);
  INFO(all_errors(out));
  REQUIRE(out.scenarios.empty());
  REQUIRE(out.errors.size() == 1);
  return out.errors.front();
}

}  // namespace

TEST_CASE("loader: a valid scenario loads with every top-level setting parsed", "[core][loader]") {
  ScenarioDir dir;
  dir.write("proj/README", "copied into the workdir");
  json extra = json::parse(R"({
      "fixture": null, "id": "core/lifecycle/full-settings", "description": "longer text", "level": "SHOULD",
      "protocol": ">=2025-03-26",
      "requires": {"server_capabilities": ["tools", "resources.subscribe"], "transports": ["stdio"]},
      "tags": ["a", "b"], "timeout_ms": 1234, "validate": "envelope", "monitors": {"alive": false},
      "workdir": {"from": "proj"}, "env": {"K": "V"}})");
  auto s = coretest::load_one(dir, scenario_text(extra));
  CHECK(s.id == "core/lifecycle/full-settings");
  CHECK(s.area == "lifecycle");
  CHECK(s.title == "a minimal scenario");
  CHECK(s.description == "longer text");
  CHECK(s.level == Level::Should);
  CHECK(s.requirements == std::vector<std::string>{"PING-01"});
  CHECK(s.protocol.contains("2025-06-18"));
  CHECK_FALSE(s.protocol.contains("2024-11-05"));
  CHECK(s.server_capabilities == std::vector<std::string>{"tools", "resources.subscribe"});
  CHECK(s.transports == std::vector<std::string>{"stdio"});
  CHECK(s.tags == std::vector<std::string>{"a", "b"});
  REQUIRE(s.timeout_ms);
  CHECK(*s.timeout_ms == 1234);
  CHECK(s.validate == scenario::ValidateMode::Envelope);
  CHECK_FALSE(s.monitor_on("alive"));
  CHECK(s.monitor_on("schema"));
  CHECK(s.env == std::map<std::string, std::string>{{"K", "V"}});
  CHECK(std::filesystem::equivalent(s.workdir_from, dir.path() + "/proj"));
  CHECK(std::filesystem::path(s.workdir_from).is_absolute());
  // The default fixture was found next to the file and its steps resolved.
  CHECK(s.fixture == "initialized");
  REQUIRE(s.fixture_steps.size() == 2);
  CHECK(s.fixture_steps[0]["request"]["method"] == "initialize");
  CHECK(s.steps.size() == 1);
  CHECK(s.file == dir.path() + "/s.json");
}

TEST_CASE("loader: the area is the second segment of the id", "[core][loader]") {
  TempDir dir;
  auto area_of = [&](const std::string& id) {
    auto out = load_scenario_text(scenario_text({}, id), dir.path() + "/x.json");
    INFO(all_errors(out));
    REQUIRE(out.scenarios.size() == 1);
    return out.scenarios[0].area;
  };
  CHECK(area_of("mcp/tools/call-echo") == "tools");
  CHECK(area_of("mcp/tools/deep/name") == "tools");
  CHECK(area_of("suite/area") == "suite");
  CHECK(area_of("single") == "single");
}

TEST_CASE("loader: invalid JSON names the file", "[core][loader]") {
  TempDir dir;
  const std::string path = dir.write("broken.json", "{\"id\": \"x\",\n  \"title\": oops}");
  auto out = load_scenarios({path});
  REQUIRE(out.errors.size() == 1);
  CHECK(out.errors[0].file == path);
  CHECK(out.errors[0].pointer.empty());
  CHECK_THAT(out.errors[0].message, Catch::StartsWith("not valid JSON"));
  CHECK_THAT(out.errors[0].text(), Catch::StartsWith(path + ": not valid JSON"));
  // The same through load_scenario_text.
  auto e = only_error("[1, 2", "/somewhere/t.json");
  CHECK(e.file == "/somewhere/t.json");
  CHECK_THAT(e.message, Catch::StartsWith("not valid JSON"));
}

TEST_CASE("loader: a missing required key", "[core][loader]") {
  for (const char* key : {"id", "title", "role", "requirements", "level", "steps"}) {
    auto e = only_error(scenario_text({{key, nullptr}}));
    INFO(key);
    CHECK(e.file == "/virtual/dir/bad.json");
    CHECK(e.pointer.empty());
    CHECK_THAT(e.message, Catch::Contains(key));
    CHECK_THAT(e.text(), Catch::StartsWith("/virtual/dir/bad.json: "));
  }
}

TEST_CASE("loader: wrong types and values point at the member", "[core][loader]") {
  auto level = only_error(scenario_text({{"level", "MUSTN'T"}}));
  CHECK(level.pointer == "/level");
  auto req = only_error(scenario_text({{"requirements", json::array()}}));
  CHECK(req.pointer == "/requirements");
  auto timeout = only_error(scenario_text({{"timeout_ms", "soon"}}));
  CHECK(timeout.pointer == "/timeout_ms");
  auto request = only_error(with_steps(R"([{"request": {"params": {}}}])"));
  CHECK(request.pointer == "/steps/0/request");
  CHECK_THAT(request.message, Catch::Contains("method"));
  auto sleep = only_error(with_steps(R"([{"sleep_ms": -1}])"));
  CHECK(sleep.pointer == "/steps/0/sleep_ms");
}

TEST_CASE("loader: an unknown key at top level is named", "[core][loader]") {
  auto e = only_error(scenario_text({{"colour", "blue"}}));
  CHECK_THAT(e.message, Catch::Contains("colour"));
  // In a step, the pointer names the step.
  auto s = only_error(with_steps(R"([{"request": {"method": "ping"}, "expcet": {}}])"));
  CHECK(s.pointer == "/steps/0");
  CHECK_THAT(s.message, Catch::Contains("expcet"));
}

TEST_CASE("loader: fetch_trap is a client-role setting", "[core][loader]") {
  auto e = only_error(scenario_text({{"fetch_trap", true}}));
  CHECK(e.pointer == "/fetch_trap");
  CHECK_THAT(e.message, Catch::Contains("client-role"));
  auto wrong_type = only_error(scenario_text({{"fetch_trap", "yes"}}));
  CHECK(wrong_type.pointer == "/fetch_trap");
  json client = {{"role", "client"}, {"fetch_trap", true},
                 {"steps", json::parse(R"([{"expect": {"method": "tools/list"}}])")}};
  auto ok = load_scenario_text(scenario_text(client), "/virtual/dir/ok.json");
  INFO(all_errors(ok));
  REQUIRE(ok.scenarios.size() == 1);
  CHECK(ok.scenarios.front().fetch_trap);
}

TEST_CASE("loader: a step needs exactly one action", "[core][loader]") {
  auto two = only_error(with_steps(R"([{"request": {"method": "ping"}}, {"send": {}, "sleep_ms": 5}])"));
  CHECK(two.pointer == "/steps/1");
  CHECK_THAT(two.message, Catch::Contains("2 actions (send, sleep_ms)"));
  CHECK_THAT(two.text(), Catch::StartsWith("/virtual/dir/bad.json: /steps/1: the step has 2 actions"));

  auto none = only_error(with_steps(R"([{"note": "forgot the action"}])"));
  CHECK(none.pointer == "/steps/0");
  CHECK_THAT(none.message, Catch::Contains("no action"));
  CHECK_THAT(none.message, Catch::Contains("expect_unordered"));  // lists what is possible

  // request + expect is one action with its response matcher, not two actions.
  auto ok = load_scenario_text(with_steps(R"([{"request": {"method": "ping"}, "expect": {"result": {}}}])"),
                               "/virtual/dir/ok.json");
  CHECK(ok.errors.empty());
}

TEST_CASE("loader: a number beyond a double and nesting past the limit are load errors", "[core][loader]") {
  // nlohmann throws out_of_range (not parse_error) for 2e308: found by scenario_loader_fuzz.
  auto big = only_error("2e308");
  CHECK_THAT(big.message, Catch::Contains("number"));
  auto big_inside = only_error(scenario_text(json{{"timeout_ms", 5}}).replace(0, 1, R"({"x": 1e999, )"));
  CHECK_THAT(big_inside.message, Catch::Contains("number"));
  auto deep = only_error(std::string(600, '[') + std::string(600, ']'));
  CHECK_THAT(deep.message, Catch::Contains("deeper than"));
}

TEST_CASE("loader: foreach without a steps array is an error, not a crash", "[core][loader]") {
  // Found by fuzz/targets/scenario_loader_fuzz.cpp (fuzz/regressions/scenario_loader/foreach-without-steps).
  for (const char* steps : {R"([{"foreach": "tools"}])", R"([{"foreach": "tools", "steps": "ping"}])"}) {
    auto out = load_scenario_text(with_steps(steps), "/virtual/dir/bad.json");
    INFO(all_errors(out));
    CHECK(out.scenarios.empty());
    bool named = false;
    for (const auto& e : out.errors) named = named || e.pointer == "/steps/0/steps" || e.pointer == "/steps/0";
    CHECK(named);
  }
}

TEST_CASE("loader: a modifier that does not apply to the action", "[core][loader]") {
  auto e = only_error(with_steps(R"([{"expect": {"method": "x"}, "for_ms": 100}])"));
  CHECK(e.pointer == "/steps/0/for_ms");
  CHECK(e.message == "\"for_ms\" does not apply to a \"expect\" step");
  auto r = only_error(with_steps(R"([{"sleep_ms": 1}, {"send": {}, "capture": {"x": "/id"}}])"));
  CHECK(r.pointer == "/steps/1/capture");
  // Common modifiers apply to any action.
  auto ok = load_scenario_text(
      with_steps(R"([{"sleep_ms": 1, "note": "n", "label": "l", "level": "MAY", "requirements": ["X-1"]}])"),
      "/virtual/dir/ok.json");
  CHECK(ok.errors.empty());
}

TEST_CASE("loader: required companions of an action", "[core][loader]") {
  auto collect = only_error(with_steps(R"([{"collect": {"method": "m"}}])"));
  CHECK(collect.pointer == "/steps/0");
  CHECK(collect.message == "a \"collect\" step needs \"as\"");
  auto expect_no = only_error(with_steps(R"([{"expect_no": {"method": "m"}}])"));
  CHECK_THAT(expect_no.message, Catch::Contains("needs \"for_ms\""));
}

TEST_CASE("loader: a bad matcher is reported with a pointer into the step", "[core][loader]") {
  auto e = only_error(with_steps(R"([{"request": {"method": "ping"}}, {"expect": {"result": {"$bogus": 1}}}])"));
  CHECK(e.pointer == "/steps/1/expect/result/$bogus");
  CHECK_THAT(e.message, Catch::Contains("unknown operator $bogus"));
  // Inside a request's expect, an expect_unordered element and a nested foreach step.
  auto r = only_error(with_steps(R"([{"request": {"method": "ping"}, "expect": {"result": {"$type": "nope"}}}])"));
  CHECK_THAT(r.pointer, Catch::StartsWith("/steps/0/expect/result/$type"));
  auto u = only_error(with_steps(R"([{"expect_unordered": [{"id": 1}, {"id": {"$gt": "x"}}]}])"));
  CHECK(u.pointer == "/steps/0/expect_unordered/1/id/$gt");
  auto f = only_error(with_steps(R"([{"foreach": "${items}", "as": "it",
      "steps": [{"sleep_ms": 1}, {"check": "${it}", "matches": {"$regex": "("}}]}])"));
  CHECK(f.pointer == "/steps/0/steps/1/matches/$regex");
  CHECK_THAT(f.message, Catch::Contains("does not compile"));
}

TEST_CASE("loader: modifiers inside foreach steps are checked too", "[core][loader]") {
  auto e = only_error(with_steps(R"([{"foreach": "${items}", "as": "it",
      "steps": [{"expect": {"method": "m"}, "for_ms": 5}]}])"));
  CHECK(e.pointer == "/steps/0/steps/0/for_ms");
}

TEST_CASE("loader: a bad protocol range", "[core][loader]") {
  auto e = only_error(scenario_text({{"protocol", "latest"}}));
  CHECK(e.pointer == "/protocol");
  CHECK_THAT(e.message, Catch::Contains("\"latest\" is not a version range"));
  auto list = only_error(scenario_text(json::parse(R"({"protocol": ["2025-06-18", ">=nope"]})")));
  CHECK(list.pointer == "/protocol");
  auto cond = only_error(with_steps(R"([{"request": {"method": "ping"}, "if": {"protocol": "2025-6-18"}}])"));
  CHECK(cond.pointer == "/steps/0/if/protocol");
  CHECK_THAT(cond.message, Catch::Contains("is not a version range"));
}

TEST_CASE("loader: a fixture that cannot be found", "[core][loader]") {
  TempDir dir;  // no fixtures/ anywhere near
  auto out = load_scenario_text(scenario_text({{"fixture", "handshake-v2"}}), dir.path() + "/s.json");
  INFO(all_errors(out));
  REQUIRE(out.errors.size() == 1);
  CHECK(out.errors[0].pointer == "/fixture");
  CHECK_THAT(out.errors[0].message, Catch::Contains("fixture \"handshake-v2\" not found"));
  CHECK_THAT(out.errors[0].message, Catch::Contains(dir.path()));
  // Found in a folder above the scenario's.
  dir.write("fixtures/handshake-v2.json", R"({"name": "handshake-v2", "steps": [{"sleep_ms": 1}]})");
  auto deeper = load_scenario_text(scenario_text({{"fixture", "handshake-v2"}}), dir.path() + "/a/b/c/s.json");
  INFO(all_errors(deeper));
  REQUIRE(deeper.scenarios.size() == 1);
  CHECK(deeper.scenarios[0].fixture_steps.size() == 1);
}

TEST_CASE("loader: errors inside a fixture file name that file", "[core][loader]") {
  TempDir dir;
  const std::string fx = dir.write("fixtures/initialized.json", R"({"name": "initialized", "steps": [
      {"sleep_ms": 1}, {"expect": {"method": "x"}, "for_ms": 5}]})");
  auto out = load_scenario_text(scenario_text({{"fixture", nullptr}}), dir.path() + "/s.json");
  REQUIRE(out.errors.size() == 1);
  CHECK(out.errors[0].file == fx);
  CHECK(out.errors[0].pointer == "/steps/1/for_ms");
  CHECK(out.scenarios.empty());

  dir.write("fixtures/initialized.json", R"(["not", "a", "fixture"])");
  auto shape = load_scenario_text(scenario_text({{"fixture", nullptr}}), dir.path() + "/s.json");
  REQUIRE(shape.errors.size() == 1);
  CHECK(shape.errors[0].file == fx);
  CHECK_THAT(shape.errors[0].message, Catch::Contains("\"steps\""));

  dir.write("fixtures/initialized.json", "{ not json");
  auto broken = load_scenario_text(scenario_text({{"fixture", nullptr}}), dir.path() + "/s.json");
  REQUIRE(broken.errors.size() == 1);
  CHECK(broken.errors[0].file == fx);
  CHECK_THAT(broken.errors[0].message, Catch::StartsWith("not valid JSON"));
}

TEST_CASE("loader: workdir.from must be a folder", "[core][loader]") {
  TempDir dir;
  dir.write("a-file.txt", "x");
  auto missing = load_scenario_text(scenario_text({{"workdir", {{"from", "no-such-folder"}}}}), dir.path() + "/s.json");
  REQUIRE(missing.errors.size() == 1);
  CHECK(missing.errors[0].pointer == "/workdir/from");
  CHECK_THAT(missing.errors[0].message, Catch::Contains("no-such-folder\" is not a folder"));
  auto file = load_scenario_text(scenario_text({{"workdir", {{"from", "a-file.txt"}}}}), dir.path() + "/s.json");
  REQUIRE(file.errors.size() == 1);
  CHECK(file.errors[0].pointer == "/workdir/from");
  CHECK(file.scenarios.empty());
}

TEST_CASE("loader: duplicate ids across files", "[core][loader]") {
  TempDir dir;
  const std::string a = dir.write("one/a.json", scenario_text({}, "core/dup/same"));
  const std::string b = dir.write("two/b.json", scenario_text({}, "core/dup/same"));
  dir.write("three/c.json", scenario_text({}, "core/dup/other"));
  auto out = load_scenarios({dir.path()});
  INFO(all_errors(out));
  REQUIRE(out.errors.size() == 1);
  const auto& e = out.errors[0];
  CHECK(e.pointer == "/id");
  CHECK_THAT(e.message, Catch::Contains("id \"core/dup/same\" is also used by"));
  // The error names one file and the message the other.
  CHECK(((e.file == a && e.message.find(b) != std::string::npos) ||
         (e.file == b && e.message.find(a) != std::string::npos)));
}

TEST_CASE("loader: folder scanning skips fixtures, requirements and private files", "[core][loader]") {
  TempDir dir;
  dir.write("suite/a.json", scenario_text({}, "core/scan/a"));
  dir.write("suite/deeper/b.json", scenario_text({}, "core/scan/b"));
  // None of these is a scenario; each would be an error if the loader read it as one.
  dir.write("suite/_draft.json", "{ unfinished");
  dir.write("suite/fixtures/initialized.json", R"({"name": "initialized", "steps": []})");
  dir.write("suite/deeper/fixtures/other.json", "{}");
  dir.write("suite/requirements/2025-06-18.json", R"({"requirements": []})");
  dir.write("suite/targets.json", R"({"targets": []})");
  dir.write("suite/baseline.json", "{}");
  dir.write("suite/profile-x.json", "{}");
  dir.write("suite/notes.txt", "not json at all");
  auto out = load_scenarios({dir.path() + "/suite"});
  INFO(all_errors(out));
  CHECK(out.errors.empty());
  REQUIRE(out.scenarios.size() == 2);
  CHECK(out.scenarios[0].id == "core/scan/a");  // sorted by id
  CHECK(out.scenarios[1].id == "core/scan/b");

  // A file named explicitly is always read as a scenario.
  auto explicit_file = load_scenarios({dir.path() + "/suite/_draft.json"});
  REQUIRE(explicit_file.errors.size() == 1);
  CHECK_THAT(explicit_file.errors[0].message, Catch::StartsWith("not valid JSON"));

  // The same folder given twice, or a folder and a file in it, loads each file once.
  auto twice = load_scenarios({dir.path() + "/suite", dir.path() + "/suite/", dir.path() + "/suite/a.json"});
  INFO(all_errors(twice));
  CHECK(twice.scenarios.size() == 2);
}

TEST_CASE("loader: only the part below the scanned folder decides what is skipped", "[core][loader]") {
  // A suite kept under a folder that happens to be called "requirements" (or "fixtures") is
  // still found: those names only matter inside the scanned tree.
  TempDir dir;
  dir.write("requirements/my-suite/a.json", scenario_text({}, "core/scan/under-requirements"));
  dir.write("fixtures/other-suite/b.json", scenario_text({}, "core/scan/under-fixtures"));
  auto out = load_scenarios({dir.path() + "/requirements/my-suite", dir.path() + "/fixtures/other-suite"});
  INFO(all_errors(out));
  CHECK(out.errors.empty());
  CHECK(out.scenarios.size() == 2);
}

TEST_CASE("loader: a missing path and several bad files are all reported", "[core][loader]") {
  TempDir dir;
  dir.write("s/good.json", scenario_text({}, "core/many/good"));
  dir.write("s/bad1.json", scenario_text({{"level", "LOUD"}}, "core/many/bad1"));
  dir.write("s/bad2.json", "nope");
  auto out = load_scenarios({dir.path() + "/s", dir.path() + "/does-not-exist"});
  INFO(all_errors(out));
  CHECK(out.scenarios.size() == 1);
  REQUIRE(out.errors.size() == 3);
  bool missing_reported = false;
  for (const auto& e : out.errors)
    if (e.file == dir.path() + "/does-not-exist" && e.message == "no such file or folder") missing_reported = true;
  CHECK(missing_reported);
}

TEST_CASE("loader: matcher_pointers lists where a step's matchers are", "[core][loader]") {
  CHECK(matcher_pointers(json::parse(R"({"request": {"method": "x"}, "expect": {}})")) ==
        std::vector<std::string>{"/expect"});
  CHECK(matcher_pointers(json::parse(R"({"expect_unordered": [{}, {}]})")) ==
        std::vector<std::string>{"/expect_unordered/0", "/expect_unordered/1"});
  CHECK(matcher_pointers(json::parse(R"({"expect_exit": {"code": 0}})")) ==
        std::vector<std::string>{"/expect_exit/code"});
  CHECK(matcher_pointers(json::parse(R"({"file": "x", "text": "a", "json": {}})")) ==
        std::vector<std::string>{"/text", "/json"});
  CHECK(matcher_pointers(json::parse("[1]")).empty());
}

TEST_CASE("loader: an if that checks a capture needs both check and a valid matcher", "[core][loader]") {
  auto ok = load_scenario_text(
      with_steps(R"([{"sleep_ms": 1, "if": {"check": "${x}", "matches": {"result": {"resultType": "task"}}}}])"),
      "/virtual/dir/ok.json");
  CHECK(ok.errors.empty());
  auto lone = load_scenario_text(with_steps(R"([{"sleep_ms": 1, "if": {"check": "${x}"}}])"), "/virtual/dir/bad.json");
  CHECK_FALSE(lone.errors.empty());
  CHECK_THAT(all_errors(lone), Catch::Contains("/steps/0/if"));
  auto bad = only_error(with_steps(R"([{"sleep_ms": 1, "if": {"check": "${x}", "matches": {"$nosuch": 1}}}])"));
  CHECK(bad.pointer.rfind("/steps/0/if/matches", 0) == 0);
}
