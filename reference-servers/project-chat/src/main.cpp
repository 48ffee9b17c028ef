// project_chat: a command-line client for meditation-mcp (or any MCP server with resources):
// list, read and search notes, sync the notes repository, or work interactively.
#include "chat_options.hpp"
#include "commands.hpp"
#include "drive.hpp"
#include "interactive.hpp"
#include "stop_signal.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

namespace {

std::string default_history_file() {
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.project_chat_history" : "";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace project_chat;
  install_stop_signals();
  CLI::App app{"project_chat: list, read and search meditation notes through an MCP server"};
  app.set_version_flag("--version", "project_chat 1.0");
  app.require_subcommand(0, 1);
  app.fallthrough();

  ChatOptions options;
  long long resource_ms = 500, tool_ms = 1000, init_ms = 2000, ttl_ms = 30000;
  std::string history = default_history_file();
  app.add_option("--server", options.server_command,
                 "Server command, run by /bin/sh -c (default: meditation-mcp beside project_chat, else on PATH; "
                 "it finds its notes in MEDITATION_NOTES_DIR)");
  app.add_option("--resource-timeout-ms", resource_ms, "Deadline for resources/list and resources/read")
      ->check(CLI::Range(1LL, 3600000LL));
  app.add_option("--tool-timeout-ms", tool_ms, "Deadline for tool calls")->check(CLI::Range(1LL, 3600000LL));
  app.add_option("--initialize-timeout-ms", init_ms, "Deadline for initialize")->check(CLI::Range(1LL, 3600000LL));
  app.add_option("--cache-ttl-ms", ttl_ms, "How long a note list or note is reused (0: no cache); sync empties it")
      ->check(CLI::Range(0LL, 86400000LL));

  Command command;
  auto* list = app.add_subcommand("list", "List the notes: URI, title, description (tab-separated)");
  auto* read = app.add_subcommand("read", "Print one note");
  read->add_option("uri", command.argument, "The note's URI (meditation://note/...)")->required();
  auto* search = app.add_subcommand("search", "Search titles and texts (case-insensitive)");
  std::vector<std::string> words;
  search->add_option("query", words, "The text to look for")->required();
  search->add_option("--limit", command.limit, "Most notes to list (server default 10)")->check(CLI::Range(1, 100));
  auto* sync = app.add_subcommand("sync", "Pull the notes repository and re-index");
  auto* tools = app.add_subcommand("tools", "List the server's tools");
  auto* shell = app.add_subcommand("shell", "Interactive mode (the default with no subcommand)");
  shell->add_option("--history", history, "History file (empty: none)");
  auto* drive = app.add_subcommand("drive", "Follow a JSON list of actions (for test harnesses: MCPSPEC_CONTEXT)");
  std::string context_text;
  drive->add_option("--context", context_text, "The actions as JSON (default: the MCPSPEC_CONTEXT variable)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  options.resource_timeout = std::chrono::milliseconds(resource_ms);
  options.tool_timeout = std::chrono::milliseconds(tool_ms);
  options.initialize_timeout = std::chrono::milliseconds(init_ms);
  options.cache_ttl = std::chrono::milliseconds(ttl_ms);

  if (*drive) {
    if (context_text.empty()) {
      const char* env = std::getenv("MCPSPEC_CONTEXT");
      context_text = env && *env ? env : "{}";
    }
    mcpref::Json context = mcpref::Json::parse(context_text, nullptr, false);
    if (context.is_discarded()) {
      std::cerr << "project_chat: drive: the context is not valid JSON: " << context_text.substr(0, 200) << "\n";
      return kExitUsage;
    }
    return run_drive(context, options, std::cout, std::cerr);
  }
  apply_mutation(options);
  NotesClient client(options);
  client.set_event_sink([](const std::string& line) { std::cerr << "project_chat: " << line << "\n"; });
  if (*list) command.kind = Command::Kind::List;
  else if (*read) command.kind = Command::Kind::Read;
  else if (*sync) command.kind = Command::Kind::Sync;
  else if (*tools) command.kind = Command::Kind::Tools;
  else if (*search) {
    command.kind = Command::Kind::Search;
    for (const auto& w : words) command.argument += (command.argument.empty() ? "" : " ") + w;
  } else {
    return run_interactive(client, history);
  }
  int status = run_command(client, command, std::cout, std::cerr);
  client.shutdown();
  return status;
}
