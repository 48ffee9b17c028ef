// mcpspec-testserver: a deliberately plain MCP server over stdio, written without any harness
// code, whose faults (--fault) let the harness's tests prove that each bug is noticed.
#include <csignal>
#include <cstdio>
#include <unistd.h>

#include "line_reader.hpp"
#include "options.hpp"
#include "session.hpp"
#include "wire.hpp"

namespace {

constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

int list_faults() {
  for (const auto& f : testserver::all_faults()) {
    std::printf("%-38s %s%s\n", std::string(f.name).c_str(), std::string(f.description).c_str(),
                f.ambiguous ? " [ambiguous: not in the must-catch list]" : "");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace testserver;
  auto parsed = parse_options(argc, argv);
  if (auto* err = std::get_if<UsageError>(&parsed)) {
    std::fprintf(stderr, "mcpspec-testserver: %s\n%s", err->message.c_str(), usage_text().c_str());
    return 2;
  }
  const Options opt = std::get<Options>(parsed);
  if (opt.help) {
    std::fputs(usage_text().c_str(), stdout);
    return 0;
  }
  if (opt.list_faults) return list_faults();

  // A vanished reader must not kill us with SIGPIPE (Wire exits cleanly on EPIPE), and
  // SIGTERM must work even if the parent started us with it ignored.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGTERM, SIG_DFL);

  Wire wire(opt.fault);
  Session session(opt, wire);
  LineReader reader(STDIN_FILENO, kMaxLineBytes);
  for (;;) {
    auto ev = reader.next();
    if (ev.status == LineReader::Status::line) {
      session.on_line(ev.line);
    } else if (ev.status == LineReader::Status::oversized) {
      session.on_oversized(ev.dropped);
    } else {
      if (ev.status == LineReader::Status::read_error) {
        std::perror("mcpspec-testserver: reading stdin");
      }
      break;
    }
  }
  if (opt.fault == Fault::ignore_stdin_eof) {
    std::fprintf(stderr, "mcpspec-testserver: stdin closed; ignore-stdin-eof keeps running until SIGTERM\n");
    for (;;) ::pause();
  }
  session.on_end_of_input();
  return 0;
}
