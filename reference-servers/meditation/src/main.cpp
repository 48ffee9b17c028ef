// meditation-mcp: a folder of Markdown notes served over MCP (stdio, protocol 2024-11-05).
#include "server.hpp"

#include "mcpref/stdio_server.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"meditation-mcp: serves a folder of Markdown notes over MCP on stdin/stdout"};
  app.set_version_flag("--version", std::string("meditation-mcp ") + meditation::kServerVersion);
  std::string notes;
  long long git_timeout_ms = 10000;
  app.add_option("notes-dir,--notes", notes,
                 "The notes folder (default: the environment variable MEDITATION_NOTES_DIR)");
  app.add_option("--git-timeout-ms", git_timeout_ms, "Deadline for git pull --ff-only during sync_repository")
      ->check(CLI::Range(100LL, 600000LL));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (notes.empty()) {
    const char* env = std::getenv("MEDITATION_NOTES_DIR");
    if (env) notes = env;
  }
  if (notes.empty()) {
    std::cerr << "meditation-mcp: no notes folder: give it as an argument or in MEDITATION_NOTES_DIR\n";
    return 2;
  }
  try {
    meditation::NoteLibrary library(notes);
    for (const auto& s : library.current()->skipped()) std::cerr << "meditation-mcp: skipped " << s << "\n";
    meditation::ServerConfig config;
    config.git_deadline = std::chrono::milliseconds(git_timeout_ms);
    mcpref::Dispatcher dispatcher;
    meditation::register_methods(dispatcher, library, config);
    return mcpref::serve_stdio(dispatcher);
  } catch (const std::exception& e) {
    std::cerr << "meditation-mcp: " << e.what() << "\n";
    return 2;
  }
}
