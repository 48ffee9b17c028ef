// Everything project_chat can be told, from its command line or (in drive mode) the harness's
// context; defaults are the contract document's.
#pragma once

#include "mcpref/backoff.hpp"
#include "mcpref/json.hpp"

#include <chrono>
#include <string>

namespace project_chat {

struct ChatOptions {
  std::string server_command;  // run by /bin/sh -c; empty: meditation-mcp (beside us, else on PATH)
  std::chrono::milliseconds resource_timeout{500};
  std::chrono::milliseconds tool_timeout{1000};
  std::chrono::milliseconds initialize_timeout{2000};
  std::chrono::milliseconds cache_ttl{30000};
  std::chrono::milliseconds close_grace{500};  // per stage of the shutdown: stdin closed, SIGTERM, SIGKILL
  mcpref::BackoffPolicy backoff = default_backoff();
  bool restart = true;

  static mcpref::BackoffPolicy default_backoff();
};

// Applies `{"cache_ttl_ms": 300, "resource_timeout_ms": ..., "tool_timeout_ms": ...,
// "initialize_timeout_ms": ...}`. Throws std::invalid_argument naming the key and the problem.
void apply_settings(ChatOptions& options, const mcpref::Json& settings);

// The server command project_chat uses when none is given: meditation-mcp from our own folder
// when it is there (a build or install tree), else from PATH.
std::string default_server_command();

// Mutant builds only (see CMakeLists.txt): the one deliberate bug of this build.
void apply_mutation(ChatOptions& options);

}  // namespace project_chat
