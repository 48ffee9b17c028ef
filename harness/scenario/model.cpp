#include "harness/scenario/model.hpp"

namespace mcpspec::scenario {

const char* role_name(Role r) { return r == Role::Client ? "client" : "server"; }

const char* call_tools_name(CallTools c) {
  switch (c) {
    case CallTools::None: return "none";
    case CallTools::ReadOnly: return "readonly";
    case CallTools::All: return "all";
  }
  return "readonly";
}

}  // namespace mcpspec::scenario
