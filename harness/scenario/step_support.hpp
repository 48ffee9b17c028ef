#pragma once
// Small pieces both step executors (runner.cpp for servers, client_runner.cpp for clients) use.
#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec::scenario {

// Dotted capability path ("resources.subscribe") declared: present and neither false nor null.
bool capability_declared(const nlohmann::json& caps, const std::string& path);

// The harness's own environment as a JSON object (the `${env.NAME}` variables).
nlohmann::json environment_object();

// "TERM", "KILL", ... as a signal number; SIGTERM for a name not listed.
int signal_number(const std::string& name);

}  // namespace mcpspec::scenario
