// The real binary: lines piped in, responses read back, exit on end of input.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "json_types.hpp"

using clariad::Json;
using namespace std::chrono_literals;

namespace {

struct Run {
  std::vector<std::string> lines;  // stdout, split
  std::string err;
  int exit_code = -1;
  bool timed_out = false;
  std::chrono::milliseconds took{0};
};

// Starts clariad, writes `input` (then closes stdin unless keep_open), collects output until
// the process exits or `limit` passes (then it is killed and timed_out is set).
Run run_clariad(const std::string& input, std::vector<std::string> args = {}, std::chrono::milliseconds limit = 10s) {
  int in[2], out[2], err[2];
  REQUIRE(::pipe(in) == 0);
  REQUIRE(::pipe(out) == 0);
  REQUIRE(::pipe(err) == 0);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    std::vector<char*> argv;
    std::string binary = CLARIAD_BINARY;
    argv.push_back(binary.data());
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);

  // Feed stdin from a thread so a large input cannot deadlock against a full stdout pipe.
  std::thread feeder([fd = in[1], input] {
    ::signal(SIGPIPE, SIG_IGN);
    std::size_t done = 0;
    while (done < input.size()) {
      const ssize_t n = ::write(fd, input.data() + done, input.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });

  Run run;
  std::string stdout_text;
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    const auto left = limit - (std::chrono::steady_clock::now() - start);
    if (left <= 0ms) {
      run.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    const int ready = ::poll(fds, 2, static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(left).count()));
    if (ready <= 0) continue;
    for (pollfd& p : fds) {
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP))) continue;
      char buf[65536];
      const ssize_t n = ::read(p.fd, buf, sizeof buf);
      if (n <= 0) {
        ::close(p.fd);
        p.fd = -1;
        --open_fds;
      } else {
        (p.fd == out[0] ? stdout_text : run.err).append(buf, static_cast<std::size_t>(n));
      }
    }
  }
  for (pollfd& p : fds) {
    if (p.fd >= 0) ::close(p.fd);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  feeder.join();
  run.took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  std::size_t from = 0;
  for (std::size_t nl = stdout_text.find('\n'); nl != std::string::npos; nl = stdout_text.find('\n', from)) {
    run.lines.push_back(stdout_text.substr(from, nl - from));
    from = nl + 1;
  }
  if (from < stdout_text.size()) run.lines.push_back(stdout_text.substr(from));  // unterminated: a bug
  return run;
}

std::vector<Json> parsed(const Run& run) {
  std::vector<Json> out;
  for (const std::string& line : run.lines) {
    INFO(line);
    REQUIRE(Json::accept(line));
    out.push_back(Json::parse(line));
  }
  return out;
}

}  // namespace

TEST_CASE("process: a session of legacy calls, errors and a stream, then exit 0 on EOF", "[process]") {
  const std::string input =
      R"({"jsonrpc": "2.0", "id": "tools-1", "method": "list_tools"})" "\n"
      R"({"jsonrpc":"2.0","id":"invoke-2","method":"invoke_tool","params":{"name":"long_running_operation","parameters":{"operation_name":"Complex Analysis","duration_seconds":1}}})" "\n"
      R"({"jsonrpc":"2.0","id":"invoke-1","method":"invoke_tool","params":{"name":"vision_agent","parameters":{"project_description":"An AI-powered task management system","conversation_id":"project-123"}}})" "\n"
      "garbage\n"
      R"({"jsonrpc":"2.0","id":"a1","method":"invoke_tool","params":{"name":"architecture_agent","parameters":{"project_name":"TaskPilot","requirements":"Users create tasks","conversation_id":"project-123"}}})" "\n"
      R"({"jsonrpc":"2.0","id":"m","method":"no_such_method"})" "\n";
  const Run run = run_clariad(input);
  REQUIRE_FALSE(run.timed_out);
  CHECK(run.exit_code == 0);
  CHECK(run.took >= 1s);  // stdin closed at once, yet the stream ran to its end
  const std::vector<Json> messages = parsed(run);
  REQUIRE(messages.size() == 11);  // 4 answers + parse error + 5 updates + final

  std::vector<Json> stream;
  for (const Json& m : messages) {
    if (m.at("id") == "invoke-2") stream.push_back(m);
  }
  REQUIRE(stream.size() == 6);
  for (std::size_t i = 0; i < 5; ++i) CHECK(stream[i].at("result").at("status") == "in_progress");
  CHECK_FALSE(stream[5].at("result").contains("status"));
  CHECK(messages.back() == stream[5]);  // everything else was answered before the stream ended

  bool saw_parse_error = false, saw_unknown = false, saw_arch = false;
  for (const Json& m : messages) {
    if (m.contains("error") && m.at("error").at("code") == -32700) saw_parse_error = m.at("id").is_null();
    if (m.at("id") == "m") saw_unknown = m.at("error").at("code") == -32601;
    if (m.at("id") == "a1") {
      saw_arch = m.at("result").at("output").get<std::string>().find("Vision & Scope revision 1") != std::string::npos;
    }
  }
  CHECK(saw_parse_error);
  CHECK(saw_unknown);
  CHECK(saw_arch);
}

TEST_CASE("process: hostile input gets errors, never a crash", "[process]") {
  std::string input;
  input += std::string(5000, '{') + "\n";                       // too deep
  input += std::string(3000, 'x') + "\n";                       // over --max-line-bytes
  input += std::string("\x00\x01\x02\xff", 4) + "\n";           // binary
  input += "[]\n";                                              // empty batch
  input += R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n";  // still alive
  const Run run = run_clariad(input, {"--max-line-bytes", "2048"});
  REQUIRE_FALSE(run.timed_out);
  CHECK(run.exit_code == 0);
  const std::vector<Json> messages = parsed(run);
  REQUIRE(messages.size() == 5);
  CHECK(messages[0].at("error").at("code") == -32600);
  CHECK(messages[1].at("error").at("code") == -32600);
  CHECK_THAT(messages[1].at("error").at("data").at("detail").get<std::string>(), Catch::Contains("2048"));
  CHECK(messages[2].at("error").at("code") == -32700);
  CHECK(messages[3].at("error").at("code") == -32600);
  CHECK(messages[4].at("id") == 1);
  CHECK(messages[4].at("result") == Json::object());
}

TEST_CASE("process: empty input exits at once with no output", "[process]") {
  const Run run = run_clariad("");
  REQUIRE_FALSE(run.timed_out);
  CHECK(run.exit_code == 0);
  CHECK(run.lines.empty());
  CHECK(run.took < 2s);
}

TEST_CASE("process: bad command-line options are refused", "[process]") {
  const Run run = run_clariad("", {"--max-operations", "0"});
  REQUIRE_FALSE(run.timed_out);
  CHECK(run.exit_code != 0);
  CHECK_FALSE(run.err.empty());
  CHECK(run.lines.empty());
}
