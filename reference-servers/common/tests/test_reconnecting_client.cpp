#include "mcpref/reconnecting_client.hpp"
#include "mcpref/stdio_client_channel.hpp"

#include "fake_server.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using mcpref::Json;
using mcpref::ReconnectingClient;
using mcpref::ReconnectOptions;
using mcpref::ServerError;
using mcpref::ServerUnavailable;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// A client of the fake server `script`, run in `dir`, with quick deterministic backoff.
ReconnectingClient make_client(const std::string& script, const std::filesystem::path& dir,
                               ReconnectOptions o = {}) {
  o.backoff.initial = milliseconds(20);
  o.backoff.max_retries = 3;
  o.close_grace = milliseconds(200);
  return ReconnectingClient(
      [script, dir] {
        mcpref::StdioClientOptions s;
        s.command = script;
        s.workdir = dir.string();
        return std::make_unique<mcpref::StdioClientChannel>(s);
      },
      o, [] { return 0.0; });
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// After initialize: log every line to `log`, answer requests with {"n": START_NUMBER}, where the
// start number counts how often the server was started (kept in the file `starts`).
const std::string kCountingServer =
    "n=$(cat starts 2>/dev/null || echo 0); n=$((n+1)); echo $n > starts; " +
    fake_server::initialize_then(
        "while IFS= read -r line; do printf '%s\\n' \"$line\" >> log; " + fake_server::kExtractId +
        R"([ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"result":{"n":%s}}\n' "$id" "$n"; done)");

long long ms_since(Clock::time_point t) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - t).count();
}

}  // namespace

TEST_CASE("reconnecting client: connects on first use and sends initialized", "[client][reconnect]") {
  TempDir dir;
  ReconnectOptions o;
  o.client_name = "tester";
  auto client = make_client(kCountingServer, dir.path(), o);
  CHECK_FALSE(client.connected());
  CHECK(client.call("resources/list", Json::object(), milliseconds(3000)) == Json{{"n", 1}});
  CHECK(client.connected());
  CHECK(client.starts() == 1);
  CHECK(client.initialize_result()["serverInfo"]["name"] == "fake");
  client.shutdown();
  CHECK(slurp(dir.path() / "log").find("notifications/initialized") != std::string::npos);
}

TEST_CASE("reconnecting client: a server that died is restarted and the request sent again", "[client][reconnect]") {
  TempDir dir;
  // The first server exits at its first request; the second one answers.
  std::string script = "n=$(cat starts 2>/dev/null || echo 0); n=$((n+1)); echo $n > starts; " +
                       fake_server::initialize_then(
                           R"(IFS= read -r line; while IFS= read -r line; do [ "$n" = 1 ] && exit 1; )" +
                           fake_server::kExtractId +
                           R"([ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"result":{"n":%s}}\n' "$id" "$n"; done)");
  auto client = make_client(script, dir.path());
  std::vector<std::string> events;
  client.set_event_sink([&](const std::string& e) { events.push_back(e); });
  CHECK(client.call("tools/call", Json::object(), milliseconds(3000)) == Json{{"n", 2}});
  CHECK(client.starts() == 2);
  REQUIRE(events.size() == 1);
  CHECK_THAT(events[0], Catch::Contains("exited with status 1") && Catch::Contains("retrying in 20 ms"));
}

TEST_CASE("reconnecting client: gives up after the retries with one clear reason", "[client][reconnect]") {
  TempDir dir;
  auto client = make_client("echo 'cannot open notes folder' >&2; exit 2", dir.path());
  auto start = Clock::now();
  try {
    client.call("resources/list", Json::object(), milliseconds(1000));
    FAIL("no ServerUnavailable");
  } catch (const ServerUnavailable& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("gave up after 4 attempts") && Catch::Contains("status 2") &&
                                          Catch::Contains("cannot open notes folder"));
  }
  CHECK(ms_since(start) >= 20 + 40 + 80);  // the backoff delays were waited out
  CHECK(client.starts() == 4);
}

TEST_CASE("reconnecting client: with restart off, a lost server is final", "[client][reconnect]") {
  TempDir dir;
  ReconnectOptions o;
  o.restart = false;
  auto client = make_client(fake_server::initialize_then("IFS= read -r line; IFS= read -r line; exit 1"), dir.path(), o);
  CHECK_THROWS_WITH(client.call("resources/list", Json::object(), milliseconds(2000)),
                    Catch::Contains("restarting it is turned off"));
  CHECK(client.starts() == 1);
}

TEST_CASE("reconnecting client: a timed-out request is cancelled by id, then retried", "[client][reconnect]") {
  TempDir dir;
  // Ignores the first request, answers the rest.
  std::string script = fake_server::initialize_then(
      R"(IFS= read -r line; IFS= read -r first; printf '%s\n' "$first" >> log; )"
      R"(while IFS= read -r line; do printf '%s\n' "$line" >> log; )" +
      fake_server::kExtractId + R"(case "$line" in *'"method":"tools/call"'*) )"
      R"(printf '{"jsonrpc":"2.0","id":%s,"result":{"late":false}}\n' "$id";; esac; done)");
  auto client = make_client(script, dir.path());
  auto start = Clock::now();
  CHECK(client.call("tools/call", Json{{"name", "search_notes"}}, milliseconds(300)) == Json{{"late", false}});
  CHECK(ms_since(start) >= 300);
  CHECK(client.starts() == 1);  // a slow server is not restarted
  std::string log = slurp(dir.path() / "log");
  CHECK_THAT(log, Catch::Contains(R"("method":"notifications/cancelled","params":{"requestId":2)"));
}

TEST_CASE("reconnecting client: an initialize without answer drops that server and starts another", "[client][reconnect]") {
  TempDir dir;
  ReconnectOptions o;
  o.initialize_timeout = milliseconds(200);
  // The first server never answers; the next ones do.
  std::string script = "n=$(cat starts 2>/dev/null || echo 0); n=$((n+1)); echo $n > starts; "
                       "if [ $n = 1 ]; then exec cat >/dev/null; fi; " + fake_server::initialize_then(
                           "while IFS= read -r line; do " + fake_server::kExtractId +
                           R"([ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id"; done)");
  auto client = make_client(script, dir.path(), o);
  auto start = Clock::now();
  CHECK(client.call("ping", nullptr, milliseconds(1000)) == Json::object());
  CHECK(ms_since(start) >= 200);
  CHECK(client.starts() == 2);
  CHECK(slurp(dir.path() / "log").find("notifications/cancelled") == std::string::npos);
}

TEST_CASE("reconnecting client: an error answer is final, not retried", "[client][reconnect]") {
  TempDir dir;
  std::string script = fake_server::initialize_then(
      "IFS= read -r line; while IFS= read -r line; do echo x >> log; " + fake_server::kExtractId +
      R"(printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"Resource not found"}}\n' "$id"; done)");
  auto client = make_client(script, dir.path());
  CHECK_THROWS_AS(client.call("resources/read", Json::object(), milliseconds(2000)), ServerError);
  CHECK(slurp(dir.path() / "log") == "x\n");
}

TEST_CASE("reconnecting client: a protocol version it does not speak ends the connection", "[client][reconnect]") {
  TempDir dir;
  ReconnectOptions o;
  o.accepted_versions = {"2024-11-05", "2025-03-26"};
  SECTION("unknown version: refused, no retry") {
    auto client = make_client(fake_server::initialize_then("cat >/dev/null", "1999-01-01"), dir.path(), o);
    CHECK_THROWS_WITH(client.call("ping", nullptr, milliseconds(1000)), Catch::Contains("1999-01-01"));
    CHECK(client.starts() == 1);
    CHECK_FALSE(client.connected());
  }
  SECTION("an accepted other version is used") {
    auto client = make_client(fake_server::initialize_then(
                                  "IFS= read -r line; IFS= read -r line; " + fake_server::kExtractId +
                                      R"(printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id"; cat >/dev/null)",
                                  "2025-03-26"),
                              dir.path(), o);
    CHECK(client.call("ping", nullptr, milliseconds(1000)) == Json::object());
  }
}

TEST_CASE("reconnecting client: answers the server's ping, refuses other server requests", "[client][reconnect]") {
  TempDir dir;
  std::string script = fake_server::initialize_then(
      R"(IFS= read -r line; printf '{"jsonrpc":"2.0","id":"p","method":"ping"}\n'; IFS= read -r a; printf '%s\n' "$a" >> log; )"
      R"(printf '{"jsonrpc":"2.0","id":"q","method":"roots/list"}\n'; IFS= read -r a; printf '%s\n' "$a" >> log; )"
      R"(IFS= read -r line; )" + fake_server::kExtractId +
      R"(printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id"; cat >/dev/null)");
  auto client = make_client(script, dir.path());
  client.connect();
  std::this_thread::sleep_for(milliseconds(200));
  CHECK(client.call("ping", nullptr, milliseconds(2000)) == Json::object());
  std::string log = slurp(dir.path() / "log");
  CHECK_THAT(log, Catch::Contains(R"({"jsonrpc":"2.0","result":{},"id":"p"})"));
  CHECK_THAT(log, Catch::Contains(R"({"jsonrpc":"2.0","error":{"code":-32601,)") && Catch::Contains(R"("id":"q"})"));
}

TEST_CASE("reconnecting client: without retry a timeout is cancelled and thrown at once", "[client][reconnect]") {
  TempDir dir;
  auto client = make_client(fake_server::initialize_then("while IFS= read -r line; do printf '%s\\n' \"$line\" >> log; done"),
                            dir.path());
  auto start = Clock::now();
  CHECK_THROWS_AS(client.call("tools/call", Json::object(), milliseconds(200), false), mcpref::RequestTimeout);
  CHECK(ms_since(start) < 1000);
  std::this_thread::sleep_for(milliseconds(100));
  std::string log = slurp(dir.path() / "log");
  CHECK_THAT(log, Catch::Contains("notifications/cancelled"));
  CHECK(log.find("tools/call") == log.rfind("tools/call"));  // sent once
}
