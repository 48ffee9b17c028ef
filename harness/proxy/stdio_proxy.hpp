#pragma once
// The stdio proxy: a host starts `mcpspec proxy -- CMD ARGS` instead of the server; the proxy
// starts CMD in its own process group and copies every byte both ways unchanged and in order
// (its stdin to the server's stdin, the server's stdout to its stdout, the server's stderr to its
// stderr), while each complete line is judged by a TrafficJudge after it has been passed on.
#include "harness/proxy/traffic_judge.hpp"

#include <functional>
#include <optional>
#include <string>

namespace mcpspec::proxy {

struct StdioProxyOptions {
  std::string command;             // for /bin/sh -c (the arguments after --, each quoted)
  std::string record_path;         // --record: the JSONL trace ("" = none)
  int shutdown_ms = 5000;          // after the host closes stdin: how long the server may take to exit
  std::size_t max_judged_line = 16 * 1024 * 1024;  // longer lines are forwarded, not judged
  int input_fd = 0, output_fd = 1, error_fd = 2;   // the host's side (tests may point these elsewhere)
};

struct StdioProxyOutcome {
  int exit_code = 0;          // the server's exit code (128 + signal when a signal ended it)
  std::string exit_text;      // "exit code 0" / "killed by SIGTERM"
  double duration_ms = 0;
  std::string checking_error;  // set when mcpspec's own checking failed (forwarding went on)
};

// Runs the session to its end. `on_finding` gets each finding as it is made (from the forwarding
// threads, one at a time). Throws only when the server cannot be started or the trace file cannot
// be created; anything that fails while checking stops the checking, never the forwarding.
StdioProxyOutcome run_stdio_proxy(const StdioProxyOptions& options, TrafficJudge& judge,
                                  const std::function<void(const TrafficFinding&)>& on_finding);

}  // namespace mcpspec::proxy
