#include "harness/scenario/client_steps.hpp"

#include <set>

namespace mcpspec::scenario {

namespace {

const std::set<std::string> kClientRoleOnly = {"reply", "crash", "close", "expect_disconnect", "expect_client_exit"};
const std::set<std::string> kServerRoleOnly = {"list",        "foreach", "close_stdin", "expect_exit", "restart",
                                               "run",         "file",    "collect",     "http"};

}  // namespace

void check_role_actions(const std::string& role, const nlohmann::json& steps, const std::string& base,
                        const std::string& file, std::vector<LoadError>& errors) {
  if (!steps.is_array()) return;
  const auto& forbidden = role == "client" ? kServerRoleOnly : kClientRoleOnly;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& step = steps[i];
    if (!step.is_object()) continue;
    for (const auto& a : forbidden)
      if (step.contains(a))
        errors.push_back({file, base + "/" + std::to_string(i),
                          "\"" + a + "\" is a " + (role == "client" ? "server" : "client") +
                              "-role step; this scenario has role \"" + role + "\""});
    // Only a client-role run refreshes variables (http_requests) while a step waits.
    if (role != "client" && step.contains("check") && step.contains("within_ms"))
      errors.push_back({file, base + "/" + std::to_string(i) + "/within_ms",
                        "\"within_ms\" on a check waits for ${http_requests} to change, which only a client-role "
                        "scenario has"});
    if (step.contains("steps")) check_role_actions(role, step["steps"], base + "/" + std::to_string(i) + "/steps", file, errors);
  }
}

}  // namespace mcpspec::scenario
