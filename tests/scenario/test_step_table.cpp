// The step table is the one place that says what a step may hold: the scenario schema's step
// properties must be exactly its actions and modifiers, every action is reachable by the loader,
// and the role restrictions and declared waits come from it.
#include "harness/scenario/loader.hpp"
#include "harness/scenario/step_table.hpp"
#include "harness/util/resources.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>

using namespace mcpspec::scenario;
using nlohmann::json;

TEST_CASE("step table: the scenario schema's step properties are the table's actions and modifiers", "[steps]") {
  auto text = mcpspec::resources::find("harness/scenario/schemas/scenario.schema.json");
  REQUIRE(text);
  json schema = json::parse(*text);
  std::set<std::string> in_schema;
  for (const auto& [k, v] : schema["definitions"]["step"]["properties"].items()) {
    (void)v;
    in_schema.insert(k);
  }
  std::set<std::string> in_table;
  for (const auto& a : step_actions()) {
    in_table.insert(std::string(a.name));
    for (auto m : a.modifiers) in_table.insert(std::string(m));
    for (auto r : a.required) {
      CAPTURE(a.name, r);
      CHECK(std::find(a.modifiers.begin(), a.modifiers.end(), r) != a.modifiers.end());  // required is also allowed
    }
  }
  for (auto m : common_step_modifiers()) in_table.insert(std::string(m));
  CHECK(in_schema == in_table);
}

TEST_CASE("step table: a step's action, and expect as a request's matcher", "[steps]") {
  CHECK(action_of(json{{"request", {{"method", "ping"}}}, {"expect", json::object()}})->name == "request");
  CHECK(action_of(json{{"expect", json::object()}})->name == "expect");
  CHECK(action_of(json{{"send", json::object()}, {"notify", json::object()}}) == nullptr);
  CHECK(actions_of(json{{"send", json::object()}, {"notify", json::object()}}).size() == 2);
  CHECK(action_of(json{{"label", "x"}}) == nullptr);
  CHECK(action_of(json::array()) == nullptr);
}

TEST_CASE("step table: roles and declared waits", "[steps]") {
  CHECK(allowed_in(*find_step_action("reply"), Role::Client));
  CHECK_FALSE(allowed_in(*find_step_action("reply"), Role::Server));
  CHECK(allowed_in(*find_step_action("list"), Role::Server));
  CHECK_FALSE(allowed_in(*find_step_action("list"), Role::Client));
  CHECK(allowed_in(*find_step_action("await_answers_ms"), Role::Client));  // one executor: both roles have it
  CHECK(declared_wait_ms_of(json{{"expect_silence_ms", 700}}) == 700);
  CHECK(declared_wait_ms_of(json{{"expect_no", json::object()}, {"for_ms", 300}}) == 300);
  CHECK(declared_wait_ms_of(json{{"http", {{"method", "GET"}, {"read_ms", 250}}}}) == 250);
  CHECK(declared_wait_ms_of(json{{"request", {{"method", "ping"}}}, {"within_ms", 9000}}) == 0);  // a bound, not a wait
}

TEST_CASE("step table: the loader refuses a step of the other role, naming it", "[steps]") {
  json doc = {{"id", "t/roles"}, {"title", "t"}, {"role", "server"}, {"requirements", {"X-1"}}, {"level", "MUST"},
              {"fixture", "none"}, {"steps", {{{"reply", {{"result", json::object()}}}}}}};
  auto out = load_scenario_text(doc.dump(), "roles.json");
  REQUIRE(out.errors.size() == 1);
  CHECK_THAT(out.errors[0].text(), Catch::Contains("/steps/0") && Catch::Contains("\"reply\" is a client-role step"));
}
