#pragma once
// Every step action a scenario can use, declared once: the modifiers it accepts, the fields it
// needs, the roles it belongs to and the fields whose milliseconds it surely waits. The loader
// checks steps against it, the executor finds a step's action through it, the suite runner orders
// scenarios by the waits it names, and a test holds the scenario schema to it. A new action is a
// row here plus its branch in the executor (step_executor.cpp) and its property in the schema.
#include "harness/scenario/model.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::scenario {

// Which scenarios may use an action: those whose target is a server, a client, or either.
enum class StepRoles { Both, ServerUnderTest, ClientUnderTest };

struct StepAction {
  std::string_view name;
  StepRoles roles = StepRoles::Both;
  std::vector<std::string_view> modifiers;  // accepted besides the common ones
  std::vector<std::string_view> required;   // companions the action cannot do without
  std::vector<std::string_view> waits;      // JSON pointers to milliseconds the step always waits
};

// All actions, in the order the loader lists them.
const std::vector<StepAction>& step_actions();
// Modifiers every action accepts (requirements, level, note, if, label).
const std::vector<std::string_view>& common_step_modifiers();
const StepAction* find_step_action(std::string_view name);

// The actions present in a step object. "expect" on a request or http step is that step's
// response matcher, not an action of its own. The loader reports anything but exactly one.
std::vector<const StepAction*> actions_of(const nlohmann::json& step);
// The one action of a checked step (nullptr when there is not exactly one).
const StepAction* action_of(const nlohmann::json& step);

bool allowed_in(const StepAction& action, Role scenario_role);

// The milliseconds a step surely waits whatever the target does (its waits), 0 for none.
long long declared_wait_ms_of(const nlohmann::json& step);

}  // namespace mcpspec::scenario
