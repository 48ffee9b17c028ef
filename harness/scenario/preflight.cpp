#include "harness/scenario/preflight.hpp"

#include "harness/protocol/era.hpp"
#include "harness/protocol/modern_stamp.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <deque>

namespace mcpspec::scenario {

namespace {

using transport::Event;

// After the target closed its output: how long to wait for its exit status and last stderr lines.
constexpr int kExitGraceMs = 2000;
constexpr const char* kStillRunning = "still running";  // what wait_for_exit says of a live process
// The stderr lines quoted, and their length bound (the line must stay one readable line).
constexpr std::size_t kStderrLines = 3;
constexpr std::size_t kStderrChars = 400;
// The exit codes of /bin/sh when it cannot run the command it was given.
constexpr int kShellCannotExecute = 126;
constexpr int kShellNotFound = 127;

// The last lines the target wrote to stderr, for the one-line report.
class StderrTail {
 public:
  void add(const std::string& line) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) return;
    lines_.push_back(line);
    if (lines_.size() > kStderrLines) lines_.pop_front();
  }
  // `started`: the target is a process mcpspec started (else a URL: its stderr is not ours to see).
  std::string text(bool started = true) const {
    if (lines_.empty()) return started ? "; it wrote nothing to stderr" : "";
    std::string joined;
    for (const auto& l : lines_) joined += (joined.empty() ? "" : " | ") + l;
    for (char& c : joined)
      if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (joined.size() > kStderrChars) joined = joined.substr(0, kStderrChars) + "...";
    return "; its stderr: " + joined;
  }

 private:
  std::deque<std::string> lines_;
};

// The first request a client makes of a server: what the suite's fixture sends too (initialize,
// or server/discover with the per-request _meta at a modern version).
std::string first_request(const std::string& version) {
  const nlohmann::json identity = {{"name", "mcpspec-preflight"}, {"version", MCPSPEC_VERSION}};
  if (protocol::is_modern(version)) {
    nlohmann::json msg = {{"jsonrpc", "2.0"}, {"id", 0}, {"method", "server/discover"}};
    return protocol::with_modern_meta(msg, version, nlohmann::json::object(), identity).dump();
  }
  nlohmann::json msg = {
      {"jsonrpc", "2.0"},
      {"id", 0},
      {"method", "initialize"},
      {"params", {{"protocolVersion", version}, {"capabilities", nlohmann::json::object()}, {"clientInfo", identity}}}};
  return msg.dump();
}

// Reads events until the target ends or the grace period passes; returns its exit status text.
std::string wait_for_exit(transport::Transport& t, StderrTail& tail, std::optional<transport::ExitStatus> status) {
  Deadline grace = Deadline::after_ms(kExitGraceMs);
  while (!status) {
    Event e = t.receive(grace);
    if (e.type == Event::Type::Stderr) tail.add(e.text);
    else if (e.type == Event::Type::Exited) status = e.status;
    else if (e.type == Event::Type::Timeout) break;
  }
  if (!status) status = t.exit_status();
  return status ? status->text() : kStillRunning;
}

// Stderr lines already queued when start() failed (a served process that exited before listening).
void drain_stderr(transport::Transport& t, StderrTail& tail) {
  try {
    for (int i = 0; i < 64; ++i) {
      Event e = t.receive(Deadline::after_ms(0));
      if (e.type == Event::Type::Timeout) return;
      if (e.type == Event::Type::Stderr) tail.add(e.text);
    }
  } catch (const std::exception&) {
  }
}

std::optional<std::string> probe_server(const RunConfig& c) {
  const std::string who = fmt::format("the server `{}`", c.target.description);
  std::unique_ptr<transport::Transport> t;
  StderrTail tail;
  try {
    t = c.target.make("", {});
    t->start();
  } catch (const std::exception& e) {
    if (t) drain_stderr(*t, tail);
    if (t) t->stop();
    return fmt::format("cannot start or reach {}: {}{}", who, e.what(), tail.text(c.target.spawns));
  }
  const bool stdio = c.target.transport == transport::TransportKind::Stdio;
  Deadline deadline = Deadline::after_ms(c.startup_timeout_ms);
  std::optional<std::string> problem;
  const std::string first = protocol::is_modern(c.proposed_version) ? "server/discover" : "initialize";
  try {
    t->send(first_request(c.proposed_version), deadline);
  } catch (const transport::TransportError& e) {
    // Over a network transport the connection worked; what the server makes of the request is the
    // scenarios' to judge (a legacy SSE server without an endpoint event fails SSE-04 there).
    // Over stdio the process is gone or not reading: its exit says why.
    if (!stdio) {
      t->stop();
      return std::nullopt;
    }
    problem = fmt::format("{} did not take the {} request ({}) and ended ({})", who, first, e.what(),
                          wait_for_exit(*t, tail, std::nullopt));
  }
  while (!problem) {
    Event e = t->receive(deadline);
    if (e.type == Event::Type::Frame || e.type == Event::Type::Rejected || e.type == Event::Type::Oversize) break;
    if (e.type == Event::Type::Stderr) tail.add(e.text);
    if (e.type == Event::Type::Closed || e.type == Event::Type::Exited) {
      std::string how = e.type == Event::Type::Exited ? e.text : wait_for_exit(*t, tail, e.status);
      // A process that closed its output but lives on has not "ended": say what it did.
      problem = how == kStillRunning
                    ? fmt::format("{} closed its output before answering {} and is still running", who, first)
                    : fmt::format("{} ended before answering {} ({})", who, first, how);
    }
    if (e.type == Event::Type::Timeout)
      problem = fmt::format("{} started but sent nothing in answer to {} within {} ms "
                            "(--startup-timeout-ms)",
                            who, first, c.startup_timeout_ms);
  }
  t->stop();
  if (problem) return *problem + tail.text(c.target.spawns);
  return std::nullopt;
}

std::optional<std::string> probe_client(const RunConfig& c) {
  const std::string who = fmt::format("the client `{}`", c.carrier.description);
  // What a client gets in a scenario (client_runner.cpp): a scenario id and an empty context.
  const std::map<std::string, std::string> env = {
      {"MCPSPEC_SCENARIO", "mcpspec/preflight"}, {"MCPSPEC_CONTEXT", "{}"}, {"MCPSPEC_PROTOCOL", c.proposed_version}};
  std::unique_ptr<transport::ClientCarrier> t;
  StderrTail tail;
  try {
    t = c.carrier.make("", env);
    t->start();
  } catch (const std::exception& e) {
    if (t) drain_stderr(*t, tail);
    if (t) t->stop();
    return fmt::format("cannot start {}: {}{}", who, e.what(), tail.text());
  }
  // Once the client has reached its server it has started; what it sends is the scenarios' to judge,
  // and so is a client that ran and ended without reaching it (see below).
  Deadline deadline = Deadline::after_ms(c.startup_timeout_ms);
  std::optional<std::string> problem;
  // An HTTP request counts too: with --auth the first ones are refused (401) until the client has a token.
  auto reached = [&t] {
    auto h = t->http_requests();
    return t->connections() > 0 || (h.is_array() && !h.empty());
  };
  while (!problem && !reached()) {
    Event e = t->receive(deadline);
    if (e.type == Event::Type::Frame) break;
    if (e.type == Event::Type::Stderr) tail.add(e.text);
    if (e.type == Event::Type::Exited) {
      // Only a command the shell could not run (126: not executable, 127: not found) is a set-up
      // error. A client that ran and gave up before reaching its server (a configured server
      // failed, it aborted) is behaviour the scenarios judge, each saying it never connected.
      if (!e.status || (e.status->code != kShellCannotExecute && e.status->code != kShellNotFound)) break;
      problem = fmt::format("{} could not be started ({}) and never reached its server", who, e.text);
    }
    if (e.type == Event::Type::Timeout)
      problem = fmt::format("{} did not reach its server within {} ms (--startup-timeout-ms)", who,
                            c.startup_timeout_ms);
  }
  t->stop();
  if (problem) return *problem + tail.text();
  return std::nullopt;
}

}  // namespace

std::optional<std::string> preflight(const RunConfig& config) {
  try {
    return config.role == Role::Client ? probe_client(config) : probe_server(config);
  } catch (const std::exception& e) {
    return fmt::format("the start-up check of the target failed: {}", e.what());
  }
}

}  // namespace mcpspec::scenario
