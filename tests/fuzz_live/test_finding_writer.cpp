// Finding files: what the fuzzer writes must load and replay under the ordinary scenario runner.
#include "harness/fuzz/finding_writer.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/loader.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec;
using namespace mcpspec::fuzz;
using nlohmann::json;

TEST_CASE("finding writer: a message nested past the runner's limit is written as raw text", "[fuzz_live]") {
  const auto& reg = protocol::SchemaRegistry::builtin();
  json nested = 1;
  for (int i = 0; i < 3000; ++i) nested = json::array({nested});
  json deep = {{"jsonrpc", "2.0"}, {"id", 12}, {"method", "tools/call"},
               {"params", {{"name", "echo"}, {"arguments", {{"v", nested}}}}}};
  json shallow = {{"jsonrpc", "2.0"}, {"id", 13}, {"method", "ping"}};
  Minimized m;
  m.anomaly.oracle = oracle::crash;
  m.anomaly.method = "tools/call";
  m.anomaly.signature = "exit code 3";
  m.anomaly.detail = "the target ended (exit code 3)";
  m.messages = {describe_message(deep, "test", "2025-11-25", reg), describe_message(shallow, "test", "2025-11-25", reg)};
  m.reproduced = true;
  FindingContext ctx{"2025-11-25", 1, 100, 500, "test"};
  json doc = finding_scenario(m, ctx);

  const json& steps = doc["steps"];
  REQUIRE(steps.size() >= 4);
  REQUIRE(steps[2].contains("send_raw"));  // the deep one, byte for byte
  CHECK(steps[2]["send_raw"] == m.messages[0].bytes);
  REQUIRE(steps[3].contains("send"));      // the shallow one keeps its id tracked
  CHECK(steps[3]["send"]["id"] == 13);

  auto loaded = scenario::load_scenario_text(doc.dump(2), "finding.json");
  INFO((loaded.errors.empty() ? std::string() : loaded.errors.front().text()));
  CHECK(loaded.errors.empty());
  CHECK(loaded.scenarios.size() == 1);
}
