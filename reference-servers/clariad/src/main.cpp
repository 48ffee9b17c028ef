// clariad: the Clariad MCP server (legacy list_tools/invoke_tool dialect plus an MCP
// compatibility mode) over stdio, one JSON-RPC message per line. Protocol on stdout only;
// diagnostics on stderr.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>

#include "line_reader.hpp"
#include "line_sink.hpp"
#include "server.hpp"

int main(int argc, char** argv) {
  clariad::ServerConfig config;
  CLI::App app{"clariad - Clariad MCP server (list_tools / invoke_tool over stdio)"};
  app.set_version_flag("--version", std::string(clariad::kServerVersion));
  app.add_option("--max-line-bytes", config.max_line_bytes, "Longest accepted input line in bytes")
      ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30))
      ->capture_default_str();
  app.add_option("--max-depth", config.max_depth, "Deepest accepted nesting of arrays/objects")
      ->check(CLI::Range(std::size_t{8}, std::size_t{512}))
      ->capture_default_str();
  app.add_option("--max-conversations", config.conversations.max_conversations,
                 "Conversations kept in memory (least recently used evicted)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
      ->capture_default_str();
  app.add_option("--max-conversation-bytes", config.conversations.max_bytes,
                 "Context bytes kept per conversation (oldest entries evicted)")
      ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30))
      ->capture_default_str();
  app.add_option("--max-operations", config.max_operations, "Long-running operations streaming at once")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  // A client that goes away must not kill us mid-write; write() reports EPIPE instead.
  std::signal(SIGPIPE, SIG_IGN);

  clariad::FdLineSink sink(STDOUT_FILENO);
  clariad::Server server(sink, config);
  clariad::LineReader reader(STDIN_FILENO, config.max_line_bytes);

  while (auto line = reader.next()) {
    if (line->too_long) {
      server.handle_overlong_line(line->length);
    } else {
      server.handle_line(line->text);
    }
    if (sink.broken()) {
      std::fprintf(stderr, "clariad: stdout is closed; stopping\n");
      server.cancel_operations();
      server.finish_operations();
      return 1;
    }
  }
  if (reader.failed()) std::fprintf(stderr, "clariad: reading stdin failed; stopping\n");
  // End of input: streaming operations still run to completion so that a client that closed
  // its writing end (e.g. `printf ... | clariad`) still receives every response.
  server.finish_operations();
  return reader.failed() ? 1 : 0;
}
