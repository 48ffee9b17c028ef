#include "interactive.hpp"

#include "commands.hpp"
#include "stop_signal.hpp"

#include <editline/readline.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace project_chat {

namespace {

constexpr int kHistoryEntries = 1000;

const char* kHelp =
    "commands:\n"
    "  list            the notes (URI, title, description)\n"
    "  read URI        one note's text\n"
    "  search WORDS    notes whose title or text contains WORDS\n"
    "  sync            pull the notes repository and re-index\n"
    "  tools           the server's tools\n"
    "  help, quit\n";

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

}  // namespace

int run_interactive(NotesClient& client, const std::string& history_file) {
  using_history();
  stifle_history(kHistoryEntries);
  if (!history_file.empty()) read_history(history_file.c_str());
  std::cout << "project_chat: type help for the commands; the server starts on first use.\n";
  for (;;) {
    char* raw = readline("project_chat> ");
    if (!raw || stop_requested()) {  // end of input, or a stop signal: leave in order
      std::free(raw);
      break;
    }
    std::string line = trim(raw);
    std::free(raw);
    if (line.empty()) continue;
    add_history(line.c_str());
    std::string word = line.substr(0, line.find(' '));
    std::string rest = line.size() > word.size() ? trim(line.substr(word.size())) : "";
    Command c;
    if (word == "quit" || word == "exit") break;
    if (word == "help" || word == "?") {
      std::cout << kHelp;
      continue;
    } else if (word == "list" && rest.empty()) {
      c.kind = Command::Kind::List;
    } else if (word == "read" && !rest.empty()) {
      c.kind = Command::Kind::Read;
      c.argument = rest;
    } else if (word == "search" && !rest.empty()) {
      c.kind = Command::Kind::Search;
      c.argument = rest;
    } else if (word == "sync" && rest.empty()) {
      c.kind = Command::Kind::Sync;
    } else if (word == "tools" && rest.empty()) {
      c.kind = Command::Kind::Tools;
    } else {
      std::cout << "not understood: " << line << " (type help)\n";
      continue;
    }
    // An unavailable server is reported and the session goes on: the next command tries again.
    run_command(client, c, std::cout, std::cerr);
  }
  if (!history_file.empty()) write_history(history_file.c_str());
  return kExitOk;
}

}  // namespace project_chat
