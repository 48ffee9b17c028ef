// The four things a user asks project_chat for, shared by the subcommands and the interactive
// mode: list, read URI, search QUERY, sync.
#pragma once

#include "notes_client.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace project_chat {

// Exit statuses: the server stayed unavailable is told apart from an answer that was an error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;       // the server answered with an error (or a tool error)
inline constexpr int kExitUsage = 2;
inline constexpr int kExitUnavailable = 3;  // no usable server after every retry

struct Command {
  enum class Kind { List, Read, Search, Sync, Tools } kind = Kind::List;
  std::string argument;  // the URI for Read, the query for Search
  std::optional<int> limit;
};

// Runs one command; prints the answer to `out`, a one-line reason to `err` ("project_chat: ...").
int run_command(NotesClient& client, const Command& command, std::ostream& out, std::ostream& err);

}  // namespace project_chat
