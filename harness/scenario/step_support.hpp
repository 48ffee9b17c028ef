#pragma once
// Small pieces both step executors (runner.cpp for servers, client_runner.cpp for clients) use.
#include <nlohmann/json.hpp>

#include <functional>

#include <string>

namespace mcpspec::scenario {

// Dotted capability path ("resources.subscribe") declared: present and neither false nor null.
bool capability_declared(const nlohmann::json& caps, const std::string& path);

// The harness's own environment as a JSON object (the `${env.NAME}` variables).
nlohmann::json environment_object();

// Calls `visit` for every step object of `steps`, depth first, including the nested steps of
// foreach bodies (each once, as written).
void for_each_step(const nlohmann::json& steps, const std::function<void(const nlohmann::json&)>& visit);

// The integer at `key` of a step, or 0 when absent or not an integer.
long long step_ms(const nlohmann::json& step, const char* key);

// True when a matcher can only select responses: an object with "result" or "error", or with
// "method": {"$absent": true}, and no other "method". Such a wait may end as soon as the transport
// proves no answer can still arrive (Awaiting::Answers in session.hpp).
bool selects_only_responses(const nlohmann::json& matcher);

// "TERM", "KILL", ... as a signal number; SIGTERM for a name not listed.
int signal_number(const std::string& name);

}  // namespace mcpspec::scenario
