// How project_chat prints what the server answered: plain text a person reads and a script
// can cut (one note per line, tab-separated).
#pragma once

#include "mcpref/json.hpp"

#include <ostream>

namespace project_chat {

void print_note_list(const mcpref::Json& list_result, std::ostream& out);
void print_note_text(const mcpref::Json& read_result, std::ostream& out);
void print_tool_text(const mcpref::Json& call_result, std::ostream& out);
void print_tool_list(const mcpref::Json& list_result, std::ostream& out);

}  // namespace project_chat
