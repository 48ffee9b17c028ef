#include "commands.hpp"

#include "output.hpp"

namespace project_chat {

int run_command(NotesClient& client, const Command& command, std::ostream& out, std::ostream& err) {
  try {
    switch (command.kind) {
      case Command::Kind::List: print_note_list(client.list_notes(), out); break;
      case Command::Kind::Read: print_note_text(client.read_note(command.argument), out); break;
      case Command::Kind::Search: print_tool_text(client.search(command.argument, command.limit), out); break;
      case Command::Kind::Sync: print_tool_text(client.sync(), out); break;
      case Command::Kind::Tools: print_tool_list(client.list_tools(), out); break;
    }
    out.flush();
    return kExitOk;
  } catch (const RequestFailed& e) {
    err << "project_chat: " << e.what() << "\n";
    return kExitFailed;
  } catch (const mcpref::ServerUnavailable& e) {
    err << "project_chat: server unavailable: " << e.what() << "\n";
    return kExitUnavailable;
  }
}

}  // namespace project_chat
