#include "mcpref/stdio_client_channel.hpp"

#include "mcpref/jsonrpc.hpp"

#include "fake_server.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <csignal>
#include <thread>

using mcpref::ChannelClosed;
using mcpref::Json;
using mcpref::RequestTimeout;
using mcpref::ServerError;
using mcpref::StdioClientChannel;
using mcpref::StdioClientOptions;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

StdioClientOptions shell(const std::string& script) {
  StdioClientOptions o;
  o.command = script;
  return o;
}

long long ms_since(Clock::time_point t) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - t).count();
}

bool alive(pid_t pid) { return ::kill(pid, 0) == 0; }

// Processes of group `pgid` that still run (zombies waiting for init to reap them do not count).
int live_members(pid_t pgid) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;
    auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    long ppid = 0, group = 0;
    rest >> state >> ppid >> group;
    if (group == pgid && state != 'Z') ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("stdio channel: a request gets the response with its id", "[client][stdio]") {
  StdioClientChannel ch(shell(fake_server::echo()));
  ch.open(milliseconds(1000));
  CHECK(ch.is_open());
  CHECK(ch.request("ping", Json::object(), milliseconds(3000)) == Json{{"echo", true}});
  CHECK(ch.request("ping", nullptr, milliseconds(3000)) == Json{{"echo", true}});
  ch.close(milliseconds(500));
  CHECK_FALSE(ch.is_open());
}

TEST_CASE("stdio channel: requests from several threads each get their own answer", "[client][stdio]") {
  StdioClientChannel ch(shell(fake_server::echo()));
  ch.open(milliseconds(1000));
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      for (int j = 0; j < 5; ++j)
        if (ch.request("x", nullptr, milliseconds(5000)) == Json{{"echo", true}}) ++ok;
    });
  for (auto& t : threads) t.join();
  CHECK(ok == 20);
}

TEST_CASE("stdio channel: no answer within the deadline is a RequestTimeout naming the id", "[client][stdio]") {
  StdioClientChannel ch(shell("cat > /dev/null"));
  ch.open(milliseconds(1000));
  auto start = Clock::now();
  try {
    ch.request("resources/read", Json::object(), milliseconds(200));
    FAIL("no timeout");
  } catch (const RequestTimeout& e) {
    CHECK(e.id() == Json(1));
    CHECK(std::string(e.what()).find("within 200 ms") != std::string::npos);
  }
  auto took = ms_since(start);
  CHECK(took >= 190);
  CHECK(took < 1500);
  CHECK(ch.is_open());  // a slow server is still a server
}

TEST_CASE("stdio channel: an error answer is a ServerError with code and data", "[client][stdio]") {
  StdioClientChannel ch(shell("IFS= read -r line; " + fake_server::kExtractId +
                              R"(printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"Resource not found","data":{"uri":"x://y"}}}\n' "$id"; cat >/dev/null)"));
  ch.open(milliseconds(1000));
  try {
    ch.request("resources/read", Json::object(), milliseconds(3000));
    FAIL("no error");
  } catch (const ServerError& e) {
    CHECK(e.code() == -32000);
    CHECK(std::string(e.what()) == "Resource not found");
    CHECK(e.data() == Json{{"uri", "x://y"}});
  }
}

TEST_CASE("stdio channel: the server's exit fails waiting requests with its status and stderr", "[client][stdio]") {
  StdioClientChannel ch(shell("IFS= read -r line; echo 'fatal: index missing' >&2; exit 3"));
  ch.open(milliseconds(1000));
  auto start = Clock::now();
  try {
    ch.request("ping", nullptr, milliseconds(5000));
    FAIL("no ChannelClosed");
  } catch (const ChannelClosed& e) {
    std::string what = e.what();
    CHECK(what.find("exited with status 3") != std::string::npos);
    CHECK(what.find("fatal: index missing") != std::string::npos);
  }
  CHECK(ms_since(start) < 3000);
  CHECK_FALSE(ch.is_open());
  CHECK_THROWS_AS(ch.request("ping", nullptr, milliseconds(100)), ChannelClosed);
  CHECK_THROWS_AS(ch.notify("x", nullptr), ChannelClosed);
}

TEST_CASE("stdio channel: a killed server is reported with its signal", "[client][stdio]") {
  StdioClientChannel ch(shell("exec sleep 30"));
  ch.open(milliseconds(1000));
  std::thread killer([&] {
    std::this_thread::sleep_for(milliseconds(100));
    ::kill(ch.pid(), SIGKILL);
  });
  CHECK_THROWS_WITH(ch.request("ping", nullptr, milliseconds(5000)), Catch::Contains("SIGKILL"));
  killer.join();
}

TEST_CASE("stdio channel: a program that cannot start is a ChannelClosed at open", "[client][stdio]") {
  StdioClientOptions o;
  o.argv = {"/nonexistent/mcp-server"};
  StdioClientChannel ch(o);
  CHECK_THROWS_WITH(ch.open(milliseconds(500)), Catch::Contains("cannot start the server `/nonexistent/mcp-server`"));
  CHECK_FALSE(ch.is_open());
  StdioClientChannel empty(StdioClientOptions{});
  CHECK_THROWS_AS(empty.open(milliseconds(500)), ChannelClosed);
}

TEST_CASE("stdio channel: lines that are not JSON-RPC are counted and skipped", "[client][stdio]") {
  StdioClientChannel ch(shell("IFS= read -r line; " + fake_server::kExtractId +
                              R"(echo 'starting up...'; echo '[1,2'; echo '{"jsonrpc":"2.0","id":999,"result":{}}'; )"
                              R"(printf '{"jsonrpc":"2.0","id":%s,"result":{"ok":1}}\n' "$id"; cat >/dev/null)"));
  ch.open(milliseconds(1000));
  CHECK(ch.request("ping", nullptr, milliseconds(3000)) == Json{{"ok", 1}});
  CHECK(ch.bad_lines() == 2);
  CHECK(ch.late_responses() == 1);
}

TEST_CASE("stdio channel: an oversize line is skipped without growing without bound", "[client][stdio]") {
  StdioClientOptions o = shell("IFS= read -r line; " + fake_server::kExtractId +
                               R"(head -c 100000 /dev/zero | tr '\0' 'x'; echo; )"
                               R"(printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id"; cat >/dev/null)");
  o.max_line_bytes = 1000;
  StdioClientChannel ch(o);
  ch.open(milliseconds(1000));
  CHECK(ch.request("ping", nullptr, milliseconds(3000)) == Json::object());
  CHECK(ch.bad_lines() == 1);
}

TEST_CASE("stdio channel: server requests go to the handler, notifications to theirs", "[client][stdio]") {
  // The server pings the client, sends a notification, then echoes the client's reply to stderr.
  StdioClientChannel ch(shell(R"(printf '{"jsonrpc":"2.0","id":"s1","method":"ping"}\n'; )"
                              R"(printf '{"jsonrpc":"2.0","id":"s2","method":"sampling/createMessage"}\n'; )"
                              R"(printf '{"jsonrpc":"2.0","method":"notifications/message","params":{"n":1}}\n'; )"
                              R"(IFS= read -r a; IFS= read -r b; printf '%s\n%s\n' "$a" "$b" >&2; cat >/dev/null)"));
  std::atomic<int> notified{0};
  ch.on_request([](const std::string& method, const Json&) -> Json {
    if (method == "ping") return Json::object();
    throw mcpref::rpc::RpcError(-32601, "Method not found");
  });
  ch.on_notification([&](const std::string& method, const Json& params) {
    if (method == "notifications/message" && params == Json{{"n", 1}}) ++notified;
  });
  ch.open(milliseconds(1000));
  auto deadline = Clock::now() + milliseconds(3000);
  while ((ch.stderr_tail().find("s2") == std::string::npos || notified == 0) && Clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(10));
  std::string tail = ch.stderr_tail();
  CHECK(tail.find(R"({"jsonrpc":"2.0","result":{},"id":"s1"})") != std::string::npos);
  CHECK(tail.find(R"({"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"s2"})") !=
        std::string::npos);
  CHECK(notified == 1);
}

TEST_CASE("stdio channel: without a request handler, server requests get -32601", "[client][stdio]") {
  StdioClientChannel ch(shell(R"(printf '{"jsonrpc":"2.0","id":7,"method":"roots/list"}\n'; )"
                              R"(IFS= read -r a; printf '%s\n' "$a" >&2; cat >/dev/null)"));
  ch.open(milliseconds(1000));
  auto deadline = Clock::now() + milliseconds(3000);
  while (ch.stderr_tail().find("-32601") == std::string::npos && Clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(10));
  CHECK(ch.stderr_tail().find(R"({"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found: roots/list"},"id":7})") !=
        std::string::npos);
}

TEST_CASE("stdio channel: close ends a cooperative server by closing its stdin", "[client][stdio]") {
  // The server records how it ended: end of input, not a signal.
  StdioClientChannel ch(shell("trap 'echo TERM >&2' TERM; cat > /dev/null; echo eof-seen >&2; exit 0"));
  ch.open(milliseconds(1000));
  pid_t pid = ch.pid();
  auto start = Clock::now();
  ch.close(milliseconds(3000));
  CHECK(ms_since(start) < 2500);  // well before the grace ran out: no signal was needed
  CHECK_FALSE(alive(pid));
  CHECK(ch.stderr_tail().find("TERM") == std::string::npos);
  ch.close(milliseconds(1000));  // twice is fine
}

TEST_CASE("stdio channel: close escalates to SIGTERM, then SIGKILL, for the whole group", "[client][stdio]") {
  SECTION("a server that ignores end of input but obeys SIGTERM") {
    StdioClientChannel ch(shell("exec sleep 30"));
    ch.open(milliseconds(1000));
    pid_t pid = ch.pid();
    auto start = Clock::now();
    ch.close(milliseconds(200));
    auto took = ms_since(start);
    CHECK(took >= 180);
    CHECK(took < 1500);
    CHECK_FALSE(alive(pid));
  }
  SECTION("a server that ignores SIGTERM too, with a child in its group") {
    StdioClientChannel ch(shell("trap '' TERM; sleep 30 & while :; do sleep 1; done"));
    ch.open(milliseconds(1000));
    pid_t pid = ch.pid();
    std::this_thread::sleep_for(milliseconds(100));
    auto start = Clock::now();
    ch.close(milliseconds(200));
    auto took = ms_since(start);
    CHECK(took >= 380);
    CHECK(took < 2500);
    CHECK_FALSE(alive(pid));
    // Nothing of the group is left running (SIGKILL is delivered at once, dying takes a moment).
    auto deadline = Clock::now() + milliseconds(2000);
    while (live_members(pid) != 0 && Clock::now() < deadline) std::this_thread::sleep_for(milliseconds(10));
    CHECK(live_members(pid) == 0);
  }
}

TEST_CASE("stdio channel: a request waiting during close fails at once", "[client][stdio]") {
  StdioClientChannel ch(shell("cat > /dev/null"));
  ch.open(milliseconds(1000));
  std::thread closer([&] {
    std::this_thread::sleep_for(milliseconds(100));
    ch.close(milliseconds(300));
  });
  auto start = Clock::now();
  CHECK_THROWS_AS(ch.request("ping", nullptr, milliseconds(10000)), ChannelClosed);
  CHECK(ms_since(start) < 3000);
  closer.join();
}

TEST_CASE("stdio channel: the server runs in the given working directory", "[client][stdio]") {
  StdioClientOptions o = shell("IFS= read -r line; " + fake_server::kExtractId +
                               R"X(printf '{"jsonrpc":"2.0","id":%s,"result":{"cwd":"%s"}}\n' "$id" "$(pwd)"; cat >/dev/null)X");
  o.workdir = "/tmp";
  StdioClientChannel ch(o);
  ch.open(milliseconds(1000));
  CHECK(ch.request("ping", nullptr, milliseconds(3000)) == Json{{"cwd", "/tmp"}});
}
