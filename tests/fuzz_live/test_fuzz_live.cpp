// The live fuzzer against our test server: the correct server gives no finding, each fuzz-relevant
// fault is found (fixed seeds, so the same messages every run), and each saved reproducer fails
// again when the ordinary scenario runner replays it.
#include "harness/fuzz/campaign.hpp"
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/runner.hpp"
#include "harness/transport/stdio_transport.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>

using namespace mcpspec;
using namespace mcpspec::fuzz;
namespace fs = std::filesystem;

namespace {

std::string testserver(const std::string& fault) {
  std::string cmd = std::string(MCPSPEC_BINARY_DIR) + "/mcpspec-testserver";
  return fault.empty() ? cmd : cmd + " --fault " + fault;
}

TransportFactory stdio(const std::string& cmd) {
  return [cmd] {
    transport::StdioOptions o;
    o.spawn.command = cmd;
    o.stop_grace_ms = 100;
    return std::unique_ptr<transport::Transport>(new transport::StdioTransport(o));
  };
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/mcpspec-fuzz-test-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

CampaignOptions options(const std::string& server, const std::string& findings, std::size_t messages) {
  CampaignOptions o;
  o.make = stdio(server);
  o.target = server;
  o.version = "2025-11-25";
  o.schemas = &protocol::SchemaRegistry::builtin();
  o.duration_s = 20;  // a bound, not the goal: max_messages ends these runs
  o.max_messages = messages;
  o.seed = 1;
  o.timeout_ms = 400;
  o.startup_timeout_ms = 5000;
  o.findings_dir = findings;
  o.minimize.max_ms = 8000;
  return o;
}

std::string describe(const CampaignResult& r) {
  std::string s = std::to_string(r.stats.messages) + " messages, findings:";
  for (const auto& f : r.findings)
    s += "\n  " + f.anomaly.key() + " (" + f.anomaly.detail + ") replay " + f.replay_verdict + " file " + f.file;
  for (const auto& e : r.errors) s += "\n  error: " + e;
  return s;
}

// Runs the fuzzer against one fault and checks that a finding with `oracle` came out, minimized,
// saved, and failing again under the normal runner.
void expect_found(const std::string& fault, const std::string& oracle, std::size_t messages = 3000) {
  TempDir dir;
  auto r = run_campaign(options(testserver(fault), dir.path, messages));
  INFO(fault << ": " << describe(r));
  const SavedFinding* hit = nullptr;
  for (const auto& f : r.findings)
    if (f.anomaly.oracle == oracle) hit = &f;
  REQUIRE(hit != nullptr);
  CHECK(hit->reproduced);
  CHECK(hit->messages.size() <= 3);  // minimized (the bugs here need one message, or none)
  REQUIRE(!hit->file.empty());
  CHECK(hit->replay_verdict == "fail");

  // Replayed independently, the way `mcpspec run --server CMD FILE` does it.
  auto loaded = scenario::load_scenarios({hit->file});
  REQUIRE(loaded.errors.empty());
  REQUIRE(loaded.scenarios.size() == 1);
  CHECK(loaded.scenarios[0].id.find("fuzz/" + oracle + "/") == 0);
  scenario::RunConfig rc;
  rc.target.make = [cmd = testserver(fault)](const std::string&, const std::map<std::string, std::string>&) {
    return stdio(cmd)();
  };
  rc.proposed_version = "2025-11-25";
  rc.timeout_ms = 1000;
  rc.schemas = &protocol::SchemaRegistry::builtin();
  rc.catalog = &scenario::RequirementCatalog::builtin();
  auto res = scenario::run_scenario(loaded.scenarios[0], rc);
  CHECK(res.verdict == Verdict::Fail);
  // ... and the same file passes against the correct server: it expects correct behaviour.
  rc.target.make = [cmd = testserver("")](const std::string&, const std::map<std::string, std::string>&) {
    return stdio(cmd)();
  };
  auto ok = scenario::run_scenario(loaded.scenarios[0], rc);
  std::string why;
  for (const auto& f : ok.findings) why += f.message + "\n";
  INFO(why);
  CHECK(ok.verdict == Verdict::Pass);
}

}  // namespace

// Each case is bounded by its message budget (a few thousand messages, a few seconds) and the
// minimizer's budget; none asserts on timing. `mcpspec_tests "[fuzz_live_e2e]"` runs just these.
TEST_CASE("live fuzzer: the correct test server gives no finding", "[fuzz_live][fuzz_live_e2e]") {
  TempDir dir;
  auto o = options(testserver(""), dir.path, 5000);
  o.call_tools = mcpspec::scenario::CallTools::All;
  auto r = run_campaign(o);
  INFO(describe(r));
  CHECK(r.errors.empty());
  CHECK(r.stats.messages >= 5000);
  CHECK(r.findings.empty());
  CHECK(r.stats.restarts.empty());
  CHECK(r.latency.count() > 500);
}

TEST_CASE("live fuzzer: two jobs also stay clean and share the message budget", "[fuzz_live][fuzz_live_e2e]") {
  TempDir dir;
  auto o = options(testserver("") + " --profile tools-only", dir.path, 3000);
  o.jobs = 2;
  auto r = run_campaign(o);
  INFO(describe(r));
  CHECK(r.findings.empty());
  CHECK(r.stats.messages >= 3000);
  CHECK(r.stats.messages < 3100);
}

TEST_CASE("live fuzzer finds: crash on deep nesting", "[fuzz_live][fuzz_live_e2e]") { expect_found("crash-on-deep-nesting", "crash"); }
TEST_CASE("live fuzzer finds: hang on a long echo", "[fuzz_live][fuzz_live_e2e]") { expect_found("hang-on-long-echo", "hang"); }
TEST_CASE("live fuzzer finds: non-JSON output on a control character", "[fuzz_live][fuzz_live_e2e]") {
  expect_found("non-json-on-control-char", "not-json-rpc");
}
TEST_CASE("live fuzzer finds: schema-invalid ping result", "[fuzz_live][fuzz_live_e2e]") { expect_found("ping-params-bad-result", "schema"); }
TEST_CASE("live fuzzer finds: wrong id", "[fuzz_live][fuzz_live_e2e]") { expect_found("wrong-id", "wrong-id"); }
TEST_CASE("live fuzzer finds: a response to a notification", "[fuzz_live][fuzz_live_e2e]") {
  expect_found("respond-to-notification", "response-to-notification");
}
TEST_CASE("live fuzzer finds: -32603 for an unknown method", "[fuzz_live][fuzz_live_e2e]") {
  expect_found("wrong-error-code", "internal-error");
}
TEST_CASE("live fuzzer finds: crash on bad JSON", "[fuzz_live][fuzz_live_e2e]") { expect_found("crash-on-bad-json", "crash"); }
TEST_CASE("live fuzzer finds: garbage on stdout", "[fuzz_live][fuzz_live_e2e]") { expect_found("garbage-stdout", "not-json-rpc"); }
TEST_CASE("live fuzzer finds: a server that never answers ping", "[fuzz_live][fuzz_live_e2e]") { expect_found("hang-on-ping", "hang"); }
TEST_CASE("live fuzzer finds: a duplicate response", "[fuzz_live][fuzz_live_e2e]") { expect_found("duplicate-response", "wrong-id"); }

TEST_CASE("live fuzzer survives a server that writes a value nested 100 000 levels deep", "[fuzz_live][fuzz_live_e2e]") {
  // Every frame goes through the shared peer reader (read_peer_json): parsing, copying or
  // printing such a value recursively would overflow our stack and end this test process.
  TempDir dir;
  std::string server = "python3 " + std::string(MCPSPEC_SOURCE_DIR) + "/tests/fuzz_live/deep_echo_server.py";
  auto o = options(server, dir.path, 200);
  o.window = 1;  // the deep frame is read before anything of ours that deep could be in flight
  auto r = run_campaign(o);
  INFO(describe(r));
  CHECK(r.errors.empty());
  CHECK(r.stats.messages >= 200);
  const SavedFinding* hit = nullptr;
  for (const auto& f : r.findings)
    if (f.anomaly.oracle == oracle::not_json_rpc && f.anomaly.signature == "nested too deep") hit = &f;
  REQUIRE(hit != nullptr);
  CHECK(hit->reproduced);
  CHECK(hit->messages.empty());  // the handshake alone provokes it
  CHECK(hit->anomaly.received.size() < 400);  // the report holds a shortened text, not the value
}
