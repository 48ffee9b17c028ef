// The client-role carrier: placeholder expansion, and the Unix socket + `mcpspec bridge` path
// against tiny shell "clients" that pipe a fixed line into the bridge. Every wait is bounded.
#include "harness/scenario/loader.hpp"
#include "harness/transport/unix_socket_transport.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <functional>
#include <string>
#include <vector>

using namespace mcpspec;
using namespace mcpspec::transport;

namespace {

std::string mcpspec_binary() { return std::string(MCPSPEC_BINARY_DIR) + "/mcpspec"; }

UnixSocketClientOptions client(const std::string& command) {
  UnixSocketClientOptions o;
  o.command = command;
  o.bridge_program = mcpspec_binary();
  o.stop_grace_ms = 200;
  return o;
}

// Collects events until `done` says so or 10 s pass.
std::vector<Event> events_until(Transport& t, const std::function<bool(const Event&)>& done) {
  std::vector<Event> out;
  auto deadline = Deadline::after_ms(10000);
  while (!deadline.passed()) {
    auto e = t.receive(Deadline::after_ms(200).earliest(deadline));
    if (e.type == Event::Type::Timeout) continue;
    out.push_back(e);
    if (done(e)) break;
  }
  return out;
}

bool has_text(const std::vector<Event>& events, Event::Type type, const std::string& part) {
  for (const auto& e : events)
    if (e.type == type && e.text.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("client command placeholders expand to quoted shell words or one JSON word", "[client][transport]") {
  auto s = expand_client_command("c --srv {server} --json {server_argv_json}", {"/x/mcpspec", "bridge", "/t/s'q"});
  CHECK(s == "c --srv '/x/mcpspec' 'bridge' '/t/s'\\''q' --json '[\"/x/mcpspec\",\"bridge\",\"/t/s'\\''q\"]'");
  CHECK_THROWS_AS(expand_client_command("client-without-placeholder", {"a"}), TransportError);
}

TEST_CASE("a client's line reaches the harness through the bridge, stdin EOF is an orderly disconnect",
          "[client][transport]") {
  if (::access(mcpspec_binary().c_str(), X_OK) != 0) {
    WARN("mcpspec binary not built; skipping the bridge round trip");
    return;
  }
  UnixSocketClientTransport t(client("printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}' | {server}"));
  t.start();
  auto events = events_until(t, [](const Event& e) { return e.type == Event::Type::Exited; });
  CHECK(has_text(events, Event::Type::Frame, "\"method\":\"ping\""));
  CHECK(has_text(events, Event::Type::Stderr, "the client closed stdin; exit 0"));
  CHECK(has_text(events, Event::Type::Closed, "server connection ended"));
  CHECK(t.connections() == 1);
  REQUIRE(t.exit_status());
  CHECK(t.exit_status()->code == 0);
  t.stop();
}

TEST_CASE("the harness's message reaches the client's side, and close ends the bridge with exit 0",
          "[client][transport]") {
  if (::access(mcpspec_binary().c_str(), X_OK) != 0) return;
  // The "client" keeps the bridge's stdin open (sleep) and prints what the bridge writes.
  UnixSocketClientTransport t(client("sleep 5 | {server}"));
  t.start();
  t.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}", Deadline::after_ms(10000));
  auto events = events_until(t, [](const Event& e) { return e.text.find("notifications/x") != std::string::npos; });
  CHECK(has_text(events, Event::Type::Stderr, "client stdout: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}"));
  t.close_input();
  events = events_until(t, [](const Event& e) { return e.type == Event::Type::Closed; });
  CHECK(has_text(events, Event::Type::Closed, "server connection ended"));
  CHECK(!t.connected());
  t.stop();
}

TEST_CASE("crash kills the process the client started", "[client][transport]") {
  if (::access(mcpspec_binary().c_str(), X_OK) != 0) return;
  UnixSocketClientTransport t(client("sleep 5 | {server}; echo bridge-status=$? >&2"));
  t.start();
  auto deadline = Deadline::after_ms(10000);
  while (!t.connected() && !deadline.passed()) t.receive(Deadline::after_ms(50));
  REQUIRE(t.connected());
  t.crash_server();
  auto events = events_until(t, [](const Event& e) { return e.text.find("bridge-status") != std::string::npos; });
  CHECK(has_text(events, Event::Type::Closed, "SIGKILL"));
  CHECK(has_text(events, Event::Type::Stderr, "bridge-status=137"));
  t.stop();
}

namespace {

// The loader's errors for `steps` in a scenario of `role` (no fixture).
std::vector<scenario::LoadError> role_errors(const std::string& role, const std::string& steps) {
  nlohmann::json doc = {{"id", "t/roles"}, {"title", "t"}, {"role", role}, {"requirements", {"X-1"}},
                        {"level", "MUST"}, {"fixture", "none"}, {"steps", nlohmann::json::parse(steps)}};
  return scenario::load_scenario_text(doc.dump(), "f.json").errors;
}

}  // namespace

TEST_CASE("client-only and server-only steps are reported in the wrong role", "[client][loader]") {
  auto errors = role_errors("server", R"([{"reply": {"result": {}}}])");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].pointer == "/steps/0");
  errors = role_errors("client", R"([{"list": "tools/list", "as": "x"}, {"crash": true}])");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("server-role") != std::string::npos);
  // A check that waits (within_ms) needs variables that change while it waits: client role only.
  const std::string waiting_check = R"([{"check": "${http_requests}", "matches": [], "within_ms": 100}])";
  errors = role_errors("server", waiting_check);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].pointer == "/steps/0/within_ms");
  CHECK(errors[0].message.find("client-role") != std::string::npos);
  CHECK(role_errors("client", waiting_check).empty());
}
