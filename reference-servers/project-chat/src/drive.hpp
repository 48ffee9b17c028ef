// Drive mode: project_chat follows a list of actions instead of a person, so a test harness
// (mcpspec's client driver protocol, MCPSPEC_CONTEXT) can make it talk to a server on cue.
#pragma once

#include "chat_options.hpp"

#include "mcpref/json.hpp"

#include <ostream>

namespace project_chat {

// `context`: {"actions": [...], "linger_ms": N, "options": {...settings, see apply_settings}}.
// Actions: ping, list_tools, call_tool {name, arguments, progress, cancel_after_ms, await},
// await_all, wait_ms {ms}, exit, and project_chat's own: list, read {uri}, search {query,
// limit}, sync. Answers go to `out`, failures to `err`. After the actions the session is kept
// (the server's requests are answered) for linger_ms (default 60000) or until a stop signal,
// then shut down in order. Returns the exit status: kExitUnavailable as soon as the server
// stays unavailable, else 0.
int run_drive(const mcpref::Json& context, ChatOptions options, std::ostream& out, std::ostream& err);

}  // namespace project_chat
