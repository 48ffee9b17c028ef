// The handshake memo (harness/scenario/handshake_memo.hpp) may only stand in for a handshake that a
// scenario would make and judge the very same way, and may only skip what the handshake rules out.
#include "harness/scenario/handshake_memo.hpp"
#include "harness/scenario/runner.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace mcpspec::scenario;
using nlohmann::json;

namespace {

Scenario plain() {
  Scenario s;
  s.id = "t/memo";
  s.fixture = "initialized";
  s.fixture_steps = json::array({{{"request", {{"method", "initialize"}}}}});
  s.protocol = mcpspec::protocol::VersionRange::parse(json(">=2024-11-05"));
  return s;
}

}  // namespace

TEST_CASE("handshake memo: every setting that changes the handshake or its judging changes the key", "[memo]") {
  RunConfig cfg;
  cfg.proposed_version = "2025-11-25";
  const std::string base = handshake_key(plain(), cfg);
  CHECK(handshake_key(plain(), cfg) == base);

  Scenario other_id = plain();
  other_id.id = "t/other";
  other_id.server_capabilities = {"prompts"};
  CHECK(handshake_key(other_id, cfg) == base);  // what a scenario needs is not part of the handshake

  RunConfig older = cfg;
  older.proposed_version = "2025-06-18";
  CHECK(handshake_key(plain(), older) != base);

  std::vector<std::function<void(Scenario&)>> changes = {
      [](Scenario& s) { s.fixture_steps[0]["request"]["params"] = {{"capabilities", {{"roots", json::object()}}}}; },
      [](Scenario& s) { s.env["MODE"] = "other"; },
      [](Scenario& s) { s.workdir_from = "/tmp/somewhere"; },
      [](Scenario& s) { s.transport_options = {{"response", "json"}}; },
      [](Scenario& s) { s.validate = ValidateMode::Off; },
      [](Scenario& s) { s.monitors["schema"] = false; },
      [](Scenario& s) { s.timeout_ms = 100; },
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    Scenario s = plain();
    changes[i](s);
    INFO("change " << i);
    CHECK(handshake_key(s, cfg) != base);
  }
}

TEST_CASE("handshake memo: the gate skips only what the handshake rules out, with the runner's reasons", "[memo]") {
  Scenario s = plain();
  s.server_capabilities = {"resources.subscribe"};
  json caps = {{"resources", {{"subscribe", true}}}};
  CHECK_FALSE(handshake_gate(s, "2025-11-25", caps));
  auto why = handshake_gate(s, "2025-11-25", json{{"resources", json::object()}});
  REQUIRE(why);
  CHECK(*why == "the server does not declare the resources.subscribe capability");

  s.protocol = mcpspec::protocol::VersionRange::parse(json(">=2025-06-18"));
  why = handshake_gate(s, "2025-03-26", caps);
  REQUIRE(why);
  CHECK(*why == "the server negotiated 2025-03-26, outside this scenario's range " + s.protocol.text());
  CHECK_FALSE(handshake_gate(s, "", caps));  // no version captured: nothing to rule out

  HandshakeMemo memo;
  CHECK_FALSE(memo.find("k"));
  memo.remember("k", {"2025-11-25", caps, std::nullopt});
  memo.remember("k", {"2025-06-18", json::object(), std::string("later")});  // the first one stays
  auto seen = memo.find("k");
  REQUIRE(seen);
  CHECK(seen->negotiated == "2025-11-25");
  CHECK_FALSE(seen->not_served);
}
