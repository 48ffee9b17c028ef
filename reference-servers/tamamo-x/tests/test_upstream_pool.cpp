// The upstream pool with real processes: lazy start, keep-alive, restart after a crash, and a
// failing start that backs off instead of retrying on every call.
#include "upstream_pool.hpp"

#include <catch2/catch.hpp>

#include <thread>

using mcpref::Json;
using namespace std::chrono_literals;

namespace {

tamamo::UpstreamConfig demo(const std::string& name) {
  tamamo::UpstreamConfig up;
  up.name = name;
  up.argv = {TAMAMO_UPSTREAM_BINARY};
  return up;
}

std::string text(const Json& result) { return result["content"][0]["text"].get<std::string>(); }

}  // namespace

TEST_CASE("servers start on first use, stay up between calls, and start again after a crash") {
  tamamo::UpstreamPool pool({demo("demo")}, 5s);
  CHECK(pool.starts("demo") == 0);  // nothing runs before a call needs it
  std::string first = text(pool.call_tool("demo", "ops_pid", Json::object(), 5s));
  CHECK(pool.starts("demo") == 1);
  CHECK(text(pool.call_tool("demo", "ops_pid", Json::object(), 5s)) == first);
  CHECK_THROWS_AS(pool.call_tool("demo", "ops_crash", Json::object(), 5s), mcpref::ChannelClosed);
  std::string after = text(pool.call_tool("demo", "ops_pid", Json::object(), 5s));
  CHECK(after != first);
  CHECK(pool.starts("demo") == 2);
  CHECK_THROWS_AS(pool.call_tool("demo", "ops_fail", Json::object(), 5s), mcpref::ServerError);
  CHECK_THROWS_WITH(pool.call_tool("nobody", "x", Json::object(), 1s), Catch::Contains("not configured"));
}

TEST_CASE("a server that cannot start is not started again before its backoff delay") {
  tamamo::UpstreamConfig broken;
  broken.name = "broken";
  broken.shell = "exit 3";
  tamamo::UpstreamPool pool({broken}, 2s);
  CHECK_THROWS_WITH(pool.call_tool("broken", "x", Json::object(), 1s), Catch::Contains("could not be started"));
  CHECK(pool.starts("broken") == 1);
  CHECK_THROWS_WITH(pool.call_tool("broken", "x", Json::object(), 1s), Catch::Contains("next attempt in"));
  CHECK(pool.starts("broken") == 1);  // failed fast, no new process
  std::this_thread::sleep_for(300ms);  // past the first delay (100 ms, +25 % at most)
  CHECK_THROWS_WITH(pool.call_tool("broken", "x", Json::object(), 1s), Catch::Contains("could not be started"));
  CHECK(pool.starts("broken") == 2);
}
