// The interactive mode: a prompt with line editing and history (libedit), one command per line.
#pragma once

#include "notes_client.hpp"

#include <string>

namespace project_chat {

// Runs until `quit`, `exit` or end of input; returns the exit status (0). The history lives in
// `history_file` (not kept when empty).
int run_interactive(NotesClient& client, const std::string& history_file);

}  // namespace project_chat
