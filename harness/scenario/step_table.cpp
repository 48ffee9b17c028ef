#include "harness/scenario/step_table.hpp"

#include <algorithm>

namespace mcpspec::scenario {

namespace {

using R = StepRoles;

const std::vector<StepAction> kActions = {
    {"send", R::Both, {"invalid", "as_written"}, {}, {}},
    {"send_raw", R::Both, {"newline"}, {}, {}},
    {"request", R::Both, {"expect", "capture", "invalid", "as_written", "within_ms"}, {}, {}},
    {"notify", R::Both, {"invalid"}, {}, {}},
    {"expect", R::Both, {"capture", "within_ms", "not_before_ms"}, {}, {}},
    {"expect_unordered", R::Both, {"capture", "within_ms"}, {}, {}},
    {"expect_silence_ms", R::Both, {"allow_notifications"}, {}, {"/expect_silence_ms"}},
    {"expect_no", R::Both, {"for_ms"}, {"for_ms"}, {"/for_ms"}},
    {"collect", R::ServerUnderTest, {"as", "within_ms"}, {"as"}, {}},
    {"check", R::Both, {"matches", "within_ms"}, {"matches"}, {}},
    {"sleep_ms", R::Both, {}, {}, {"/sleep_ms"}},
    {"await_answers_ms", R::Both, {}, {}, {"/await_answers_ms"}},
    {"list", R::ServerUnderTest, {"as", "within_ms"}, {"as"}, {}},
    {"foreach", R::ServerUnderTest, {"as", "where", "limit", "callable", "steps"}, {"as", "steps"}, {}},
    {"close_stdin", R::ServerUnderTest, {}, {}, {}},
    {"expect_exit", R::ServerUnderTest, {"within_ms"}, {}, {}},
    {"signal", R::Both, {}, {}, {}},
    {"kill", R::Both, {}, {}, {}},
    {"restart", R::ServerUnderTest, {"within_ms"}, {}, {}},
    {"run", R::ServerUnderTest, {"expect_code", "within_ms"}, {}, {}},
    {"file", R::ServerUnderTest, {"exists", "text", "json"}, {}, {}},
    {"retry", R::ServerUnderTest, {"expect", "capture", "as_written", "within_ms"}, {}, {}},
    {"skip_unless_retried", R::ServerUnderTest, {}, {}, {}},
    {"http", R::ServerUnderTest, {"expect", "capture", "end_if", "within_ms"}, {}, {"/http/read_ms"}},
    {"reply", R::ClientUnderTest, {"to", "delay_ms", "invalid"}, {}, {"/delay_ms"}},
    {"input_required", R::ClientUnderTest, {"to", "delay_ms"}, {}, {"/delay_ms"}},
    {"expect_retry", R::ClientUnderTest, {"to", "capture", "within_ms"}, {}, {}},
    {"crash", R::ClientUnderTest, {}, {}, {}},
    {"close", R::ClientUnderTest, {}, {}, {}},
    {"expect_disconnect", R::ClientUnderTest, {"within_ms"}, {}, {}},
    {"expect_client_exit", R::ClientUnderTest, {"within_ms", "allow_running"}, {}, {}},
    {"skip_unless_reconnected", R::ClientUnderTest, {"within_ms"}, {}, {}},
};

const std::vector<std::string_view> kCommon = {"requirements", "level", "note", "if", "label"};

}  // namespace

const std::vector<StepAction>& step_actions() { return kActions; }
const std::vector<std::string_view>& common_step_modifiers() { return kCommon; }

const StepAction* find_step_action(std::string_view name) {
  auto it = std::find_if(kActions.begin(), kActions.end(), [&](const StepAction& a) { return a.name == name; });
  return it == kActions.end() ? nullptr : &*it;
}

std::vector<const StepAction*> actions_of(const nlohmann::json& step) {
  std::vector<const StepAction*> found;
  if (!step.is_object()) return found;
  bool expect_is_matcher = step.contains("request") || step.contains("http") || step.contains("retry");
  for (const auto& a : kActions) {
    if (!step.contains(std::string(a.name))) continue;
    if (a.name == "expect" && expect_is_matcher) continue;
    found.push_back(&a);
  }
  return found;
}

const StepAction* action_of(const nlohmann::json& step) {
  auto found = actions_of(step);
  return found.size() == 1 ? found.front() : nullptr;
}

bool allowed_in(const StepAction& action, Role scenario_role) {
  switch (action.roles) {
    case StepRoles::Both: return true;
    case StepRoles::ServerUnderTest: return scenario_role == Role::Server;
    case StepRoles::ClientUnderTest: return scenario_role == Role::Client;
  }
  return false;
}

long long declared_wait_ms_of(const nlohmann::json& step) {
  const StepAction* a = action_of(step);
  if (!a) return 0;
  long long total = 0;
  for (auto ptr : a->waits) {
    nlohmann::json::json_pointer jp{std::string(ptr)};
    if (step.contains(jp) && step.at(jp).is_number_integer()) total += step.at(jp).get<long long>();
  }
  return total;
}

}  // namespace mcpspec::scenario
