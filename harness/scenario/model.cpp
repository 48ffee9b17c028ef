#include "harness/scenario/model.hpp"

#include "harness/protocol/era.hpp"

namespace mcpspec::scenario {

const char* role_name(Role r) { return r == Role::Client ? "client" : "server"; }

const std::string& Scenario::fixture_at(std::string_view version) const {
  return !modern_fixture.empty() && protocol::is_modern(version) ? modern_fixture : fixture;
}

const nlohmann::json& Scenario::fixture_steps_at(std::string_view version) const {
  return !modern_fixture.empty() && protocol::is_modern(version) ? modern_fixture_steps : fixture_steps;
}

const char* call_tools_name(CallTools c) {
  switch (c) {
    case CallTools::None: return "none";
    case CallTools::ReadOnly: return "readonly";
    case CallTools::All: return "all";
  }
  return "readonly";
}

}  // namespace mcpspec::scenario
