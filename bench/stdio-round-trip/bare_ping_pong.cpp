// The bare side of bench/stdio-round-trip: a pipe ping-pong with an MCP server over stdio and
// nothing else. It starts the server (argv[1], run by /bin/sh as mcpspec runs a --server command),
// makes the handshake, then writes N pings one after the other, each a JSON line, and reads each
// answer line before writing the next. Printed: microseconds per round trip, and this process's
// own CPU microseconds per round trip. What the harness adds to the same exchange (framing,
// parsing, classification, monitors, schema validation, matching, the wire log) is the difference.
//
//   mcpspec-bench-bare-ping-pong "<server command>" N
#include <nlohmann/json.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

constexpr int kAnswerTimeoutMs = 10000;  // a server that stops answering ends the bench, not hangs it
constexpr int kExitGraceMs = 2000;       // after stdin closes: then the server's group is killed

struct Server {
  pid_t pid = -1;
  int in = -1;   // its stdin
  int out = -1;  // its stdout
  std::string buffered;
};

Server start(const std::string& command) {
  int to[2], from[2];
  if (pipe(to) != 0 || pipe(from) != 0) throw std::runtime_error("pipe failed");
  Server s;
  s.pid = fork();
  if (s.pid < 0) throw std::runtime_error("fork failed");
  if (s.pid == 0) {
    setpgid(0, 0);  // its own group, so the whole of it can be stopped
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[0]), close(to[1]), close(from[0]), close(from[1]);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(s.pid, s.pid);
  close(to[0]);
  close(from[1]);
  s.in = to[1];
  s.out = from[0];
  return s;
}

void write_line(Server& s, const std::string& text) {
  std::string line = text + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    ssize_t n = write(s.in, line.data() + done, line.size() - done);
    if (n <= 0) throw std::runtime_error("the server stopped reading its stdin");
    done += static_cast<std::size_t>(n);
  }
}

std::string read_line(Server& s) {
  char chunk[65536];
  for (;;) {
    auto nl = s.buffered.find('\n');
    if (nl != std::string::npos) {
      std::string line = s.buffered.substr(0, nl);
      s.buffered.erase(0, nl + 1);
      return line;
    }
    pollfd p{s.out, POLLIN, 0};
    if (poll(&p, 1, kAnswerTimeoutMs) <= 0) throw std::runtime_error("no answer within 10 s");
    ssize_t n = read(s.out, chunk, sizeof chunk);
    if (n <= 0) throw std::runtime_error("the server closed its output");
    s.buffered.append(chunk, static_cast<std::size_t>(n));
  }
}

void stop(Server& s) {
  close(s.in);
  for (int waited = 0; waited < kExitGraceMs; waited += 10) {
    if (waitpid(s.pid, nullptr, WNOHANG) == s.pid) {
      close(s.out);
      return;
    }
    usleep(10000);
  }
  kill(-s.pid, SIGKILL);
  waitpid(s.pid, nullptr, 0);
  close(s.out);
}

double cpu_us() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::atoi(argv[2]) <= 0) {
    std::fprintf(stderr, "usage: %s \"<server command>\" <pings (> 0)>\n", argv[0]);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  const int n = std::atoi(argv[2]);
  Server s = start(argv[1]);
  try {
    nlohmann::json init = {{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
                           {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", nlohmann::json::object()},
                                       {"clientInfo", {{"name", "bare"}, {"version", "1"}}}}}};
    write_line(s, init.dump());
    read_line(s);
    write_line(s, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    const double cpu0 = cpu_us();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 1; i <= n; ++i) {
      write_line(s, nlohmann::json{{"jsonrpc", "2.0"}, {"id", i}, {"method", "ping"}}.dump());
      read_line(s);
    }
    const double wall = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%.2f %.2f\n", wall / n, (cpu_us() - cpu0) / n);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bare ping-pong: %s\n", e.what());
    stop(s);
    return 1;
  }
  stop(s);
  return 0;
}
