#pragma once
// Which step actions belong to which role. A server-role scenario plays the client (request,
// list, restart ...); a client-role scenario plays the server (reply, crash, close ...). A step of
// the other role would silently do nothing, so the loader reports it instead.
#include "harness/scenario/loader.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::scenario {

void check_role_actions(const std::string& role, const nlohmann::json& steps, const std::string& base,
                        const std::string& file, std::vector<LoadError>& errors);

}  // namespace mcpspec::scenario
