// ChildProcess and StdioTransport against small shell targets that misbehave on purpose: every
// case must end with an event or an exception, never a hang, and leave no process behind.
#include "tests/core/core_support.hpp"

#include "harness/transport/child_process.hpp"
#include "harness/transport/stdio_transport.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace mcpspec;
using namespace mcpspec::transport;
using mcpspec::coretest::events_until;
using mcpspec::coretest::is_exit;
using mcpspec::coretest::TempDir;

namespace {

StdioOptions options_for(const std::string& command) {
  StdioOptions o;
  o.spawn.command = command;
  o.stop_grace_ms = 200;
  return o;
}

std::vector<std::string> texts_of(const std::vector<Event>& events, Event::Type type) {
  std::vector<std::string> out;
  for (const auto& e : events)
    if (e.type == type) out.push_back(e.text);
  return out;
}

const Event* find_exit(const std::vector<Event>& events) {
  for (const auto& e : events)
    if (e.type == Event::Type::Exited) return &e;
  return nullptr;
}

// Waits for the first stdout frame (the fakes print their pids before doing anything else).
std::string first_frame(Transport& t) {
  auto events = events_until(t, [](const Event& e) { return e.type == Event::Type::Frame || is_exit(e); });
  auto frames = texts_of(events, Event::Type::Frame);
  REQUIRE_FALSE(frames.empty());
  return frames.front();
}

// True when no process of group `pgid` exists any more (not even a zombie: zombies still count).
bool group_gone(pid_t pgid) { return ::kill(-pgid, 0) == -1 && errno == ESRCH; }

}  // namespace

TEST_CASE("stdio: a frame sent to cat comes back unchanged", "[core][stdio]") {
  StdioTransport t(options_for("cat"));
  t.start();
  CHECK(t.describe().find("spawned pid") == 0);
  t.send(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", Deadline::after_ms(30000));
  t.send_raw("raw bytes without newline", Deadline::after_ms(30000));
  t.send_raw(" and the rest\n", Deadline::after_ms(30000));
  auto events = events_until(t, [n = 0](const Event& e) mutable { return e.type == Event::Type::Frame && ++n == 2; });
  auto frames = texts_of(events, Event::Type::Frame);
  REQUIRE(frames.size() == 2);
  CHECK(frames[0] == R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  CHECK(frames[1] == "raw bytes without newline and the rest");
  // Closing its input ends cat: first its output closes, then it exits with 0.
  t.close_input();
  auto end = events_until(t, is_exit);
  REQUIRE(end.size() >= 2);
  CHECK(end[end.size() - 2].type == Event::Type::Closed);
  REQUIRE(end.back().type == Event::Type::Exited);
  REQUIRE(end.back().status);
  CHECK(end.back().status->code == 0);
  CHECK(end.back().status->signal == 0);
  CHECK(end.back().text == "exit code 0");
  REQUIRE(t.exit_status());
  CHECK(t.exit_status()->code == 0);
  // After the end, receive() times out instead of blocking or repeating the exit.
  CHECK(t.receive(Deadline::after_ms(50)).type == Event::Type::Timeout);
  t.stop();
  t.stop();  // idempotent
}

TEST_CASE("stdio: stderr lines arrive as Stderr events, apart from stdout", "[core][stdio]") {
  StdioTransport t(options_for("echo first >&2; echo '{}'; echo second >&2; exit 4"));
  t.start();
  auto events = events_until(t, is_exit);
  CHECK(texts_of(events, Event::Type::Stderr) == std::vector<std::string>{"first", "second"});
  CHECK(texts_of(events, Event::Type::Frame) == std::vector<std::string>{"{}"});
  const Event* ex = find_exit(events);
  REQUIRE(ex);
  CHECK(ex->status->code == 4);
  // The target's last words on stderr are delivered before its exit.
  CHECK(events.back().type == Event::Type::Exited);
}

TEST_CASE("stdio: 1 MiB on stderr without a newline does not block the target", "[core][stdio]") {
  // If the harness did not drain stderr the target would block in its write and never print "done".
  StdioTransport t(options_for("head -c 1048576 /dev/zero | tr '\\0' e >&2; echo done"));
  t.start();
  auto events = events_until(t, is_exit);
  CHECK(texts_of(events, Event::Type::Frame) == std::vector<std::string>{"done"});
  auto err = texts_of(events, Event::Type::Stderr);
  REQUIRE(err.size() == 1);
  // One line, cut to the stderr limit, naming its true size.
  CHECK(err[0].size() < 70 * 1024);
  CHECK(err[0].rfind("eeee", 0) == 0);
  CHECK_THAT(err[0], Catch::Contains("stderr line of 1048576 bytes truncated"));
  const Event* ex = find_exit(events);
  REQUIRE(ex);
  CHECK(ex->status->code == 0);
}

TEST_CASE("stdio: a stdout line over the message limit becomes one Oversize event", "[core][stdio]") {
  StdioOptions o = options_for("head -c 5000000 /dev/zero | tr '\\0' a; echo; echo '{\"after\":1}'");
  o.max_message_bytes = 64 * 1024;
  StdioTransport t(o);
  t.start();
  auto events = events_until(t, is_exit);
  auto over = texts_of(events, Event::Type::Oversize);
  REQUIRE(over.size() == 1);
  CHECK_THAT(over[0], Catch::Contains("5000000 bytes exceeds the limit of 65536 bytes"));
  CHECK(over[0].size() < 2048);
  CHECK(texts_of(events, Event::Type::Frame) == std::vector<std::string>{"{\"after\":1}"});
}

TEST_CASE("stdio: send() to a target that never reads throws at its deadline", "[core][stdio]") {
  StdioTransport t(options_for("exec sleep 1000"));
  t.start();
  const std::string big(1 << 20, 'x');  // far more than a pipe buffer holds
  bool threw = false;
  try {
    t.send(big, Deadline::after_ms(1500));
  } catch (const TransportError& e) {
    threw = true;
    CHECK_THAT(e.what(), Catch::Contains("did not read its stdin before the deadline"));
    CHECK_THAT(e.what(), Catch::Contains("of 1048577 bytes written"));
  }
  CHECK(threw);
  t.stop();
  REQUIRE(t.exit_status());
  CHECK(t.exit_status()->signal != 0);  // it had to be killed
}

TEST_CASE("stdio: send() after the target exited throws instead of raising SIGPIPE", "[core][stdio]") {
  StdioTransport t(options_for("exit 0"));
  t.start();
  events_until(t, is_exit);
  CHECK_THROWS_AS(t.send("{}", Deadline::after_ms(5000)), TransportError);
  t.close_input();
  CHECK_THROWS_WITH(t.send("{}", Deadline::after_ms(5000)), Catch::Contains("stdin is already closed"));
}

TEST_CASE("stdio: a target killed by a signal gives Exited with that signal", "[core][stdio]") {
  StdioTransport t(options_for("ulimit -c 0; echo '{\"before\":1}'; kill -SEGV $$"));
  t.start();
  auto events = events_until(t, is_exit);
  CHECK(texts_of(events, Event::Type::Frame) == std::vector<std::string>{"{\"before\":1}"});
  const Event* ex = find_exit(events);
  REQUIRE(ex);
  REQUIRE(ex->status);
  CHECK(ex->status->signal == SIGSEGV);
  CHECK(ex->status->code == -1);
  CHECK(ex->text == "killed by SIGSEGV");
}

TEST_CASE("stdio: a command that does not exist ends with code 127, not an exception", "[core][stdio]") {
  StdioTransport t(options_for("/nonexistent/mcpspec-no-such-server --flag"));
  REQUIRE_NOTHROW(t.start());
  auto events = events_until(t, is_exit);
  const Event* ex = find_exit(events);
  REQUIRE(ex);
  CHECK(ex->status->code == 127);
  auto err = texts_of(events, Event::Type::Stderr);
  REQUIRE_FALSE(err.empty());
  CHECK_THAT(err[0], Catch::Contains("mcpspec-no-such-server"));
}

TEST_CASE("stdio: workdir and env options reach the target", "[core][stdio]") {
  TempDir dir;
  StdioOptions o = options_for("pwd; echo \"$MCPSPEC_CORE_VAR\"; echo \"$HOME\"; env | grep -c '^HOME='");
  o.spawn.workdir = dir.path();
  o.spawn.env = {{"MCPSPEC_CORE_VAR", "value with spaces"}, {"HOME", "/overridden/home"}};
  StdioTransport t(o);
  t.start();
  CHECK_THAT(t.describe(), Catch::Contains("(in " + dir.path() + ")"));
  auto frames = texts_of(events_until(t, is_exit), Event::Type::Frame);
  REQUIRE(frames.size() == 4);
  CHECK(std::filesystem::equivalent(frames[0], dir.path()));
  CHECK(frames[1] == "value with spaces");
  CHECK(frames[2] == "/overridden/home");
  CHECK(frames[3] == "1");  // overridden, not added twice
}

TEST_CASE("stdio: a workdir that does not exist ends the child, not the harness", "[core][stdio]") {
  StdioOptions o = options_for("echo should-not-run");
  o.spawn.workdir = "/nonexistent/mcpspec/workdir";
  StdioTransport t(o);
  REQUIRE_NOTHROW(t.start());
  auto events = events_until(t, is_exit);
  CHECK(texts_of(events, Event::Type::Frame).empty());
  const Event* ex = find_exit(events);
  REQUIRE(ex);
  CHECK(ex->status->code == 126);
}

TEST_CASE("stdio: stop() removes a grandchild and leaves no zombie", "[core][stdio]") {
  // The shell prints its own pid (= the group id) and its background child's pid, then waits.
  StdioTransport t(options_for("sleep 1000 & echo $$ $!; wait"));
  t.start();
  std::string line = first_frame(t);
  pid_t pgid = 0, grandchild = 0;
  REQUIRE(std::sscanf(line.c_str(), "%d %d", &pgid, &grandchild) == 2);
  REQUIRE(::getpgid(grandchild) == pgid);
  t.stop();
  CHECK(group_gone(pgid));
  CHECK(::kill(grandchild, 0) == -1);
  // Reaped already: nothing of that group is left for us to wait for.
  CHECK(::waitpid(-pgid, nullptr, WNOHANG) == -1);
  CHECK(errno == ECHILD);
}

TEST_CASE("stdio: a leader that exits while its grandchild keeps stdout open", "[core][stdio]") {
  StdioTransport t(options_for("sleep 1000 & echo $$ $!; exit 3"));
  t.start();
  std::string line = first_frame(t);
  pid_t pgid = 0, grandchild = 0;
  REQUIRE(std::sscanf(line.c_str(), "%d %d", &pgid, &grandchild) == 2);
  // stdout stays open (the grandchild holds it), so no Closed event; the exit status is still known.
  Deadline limit = Deadline::after_ms(30000);
  while (!t.exit_status() && !limit.passed()) t.receive(Deadline::after_ms(20));
  REQUIRE(t.exit_status());
  CHECK(t.exit_status()->code == 3);
  REQUIRE(::kill(grandchild, 0) == 0);
  t.stop();
  CHECK(group_gone(pgid));
  CHECK(::waitpid(grandchild, nullptr, WNOHANG) == -1);
}

TEST_CASE("stdio: stop() ends a target that ignores SIGTERM", "[core][stdio]") {
  // Ignored signals stay ignored across exec, so the sleeps ignore TERM too: only SIGKILL works.
  StdioTransport t(options_for("trap '' TERM; echo $$; while :; do sleep 1; done"));
  t.start();
  pid_t pgid = std::stoi(first_frame(t));
  t.stop();
  REQUIRE(t.exit_status());
  CHECK(t.exit_status()->signal == SIGKILL);
  CHECK(t.exit_status()->text() == "killed by SIGKILL");
  CHECK(group_gone(pgid));
}

TEST_CASE("stdio: signal() reaches the whole group", "[core][stdio]") {
  StdioTransport t(options_for("sleep 1000 & echo $$ $!; wait"));
  t.start();
  std::string line = first_frame(t);
  pid_t pgid = 0, grandchild = 0;
  REQUIRE(std::sscanf(line.c_str(), "%d %d", &pgid, &grandchild) == 2);
  t.signal(SIGTERM);
  auto events = events_until(t, is_exit);
  const Event* ex = find_exit(events);
  REQUIRE(ex);
  CHECK(ex->status->signal == SIGTERM);
  t.stop();
  CHECK(group_gone(pgid));
}

TEST_CASE("stdio: a flood of lines is delivered completely and in order", "[core][stdio]") {
  StdioTransport t(options_for("i=0; while [ $i -lt 20000 ]; do echo \"{\\\"n\\\":$i}\"; i=$((i+1)); done"));
  t.start();
  auto frames = texts_of(events_until(t, is_exit, 120000), Event::Type::Frame);
  REQUIRE(frames.size() == 20000);
  CHECK(frames.front() == "{\"n\":0}");
  CHECK(frames[12345] == "{\"n\":12345}");
  CHECK(frames.back() == "{\"n\":19999}");
}

TEST_CASE("child process: terminate is idempotent and the destructor cleans up", "[core][stdio]") {
  pid_t pgid = 0;
  {
    ChildProcess p;
    SpawnOptions o;
    o.command = "exec sleep 1000";
    p.spawn(o);
    pgid = p.pid();
    REQUIRE(pgid > 0);
    CHECK(::getpgid(pgid) == pgid);  // its own group
    CHECK_FALSE(p.poll_exit());
    p.terminate(100);
    REQUIRE(p.poll_exit());
    CHECK(p.poll_exit()->signal == SIGTERM);  // a polite TERM was enough
    p.terminate(100);
    CHECK(p.stdin_fd() == -1);
    CHECK(p.stdout_fd() == -1);
  }
  CHECK(group_gone(pgid));
  {
    ChildProcess p;
    SpawnOptions o;
    o.command = "exec sleep 1000";
    p.spawn(o);
    pgid = p.pid();
  }  // destructor only
  CHECK(group_gone(pgid));
}

TEST_CASE("exit status text names the code or the signal", "[core][stdio]") {
  CHECK(ExitStatus{0, 0}.text() == "exit code 0");
  CHECK(ExitStatus{127, 0}.text() == "exit code 127");
  CHECK(ExitStatus{-1, SIGTERM}.text() == "killed by SIGTERM");
  CHECK(ExitStatus{-1, SIGKILL}.text() == "killed by SIGKILL");
}
