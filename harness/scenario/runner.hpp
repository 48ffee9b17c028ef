#pragma once
// Runs one scenario against one target and produces its (pre-baseline) result.
#include "harness/scenario/model.hpp"
#include "harness/results/result.hpp"
#include "harness/transport/client_carrier.hpp"
#include "harness/transport/transport.hpp"
#include "harness/util/clock.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace mcpspec::protocol {
class SchemaRegistry;
}

namespace mcpspec::scenario {

class RequirementCatalog;
class HandshakeMemo;

// How to reach a server under test. The factory gets the working directory and extra environment
// of the scenario, so every scenario gets its own fresh process. Made by cli/target_factory.hpp.
struct TargetSpec {
  std::string description;  // for reports: the command or URL as the user gave it
  transport::TransportKind transport = transport::TransportKind::Stdio;
  bool spawns = true;       // false: a running server reached by URL (no process, no stderr of ours)
  std::function<std::unique_ptr<transport::Transport>(const std::string& workdir,
                                                      const std::map<std::string, std::string>& env)>
      make;
};

// How to reach a client under test: a carrier started once per scenario (the client with it).
struct CarrierSpec {
  std::string description;  // the client command as the user gave it
  transport::TransportKind transport = transport::TransportKind::Stdio;
  std::function<std::unique_ptr<transport::ClientCarrier>(const std::string& workdir,
                                                          const std::map<std::string, std::string>& env)>
      make;
};

struct RunConfig {
  TargetSpec target;                   // role "server": the server under test
  CarrierSpec carrier;                 // role "client": the client under test
  std::string proposed_version;
  int timeout_ms = 5000;               // default wait of one step
  int scenario_timeout_ms = 120000;    // bound on one whole scenario
  int startup_timeout_ms = 20000;      // waits before the target's first output (slow starts: node, JVM)
  CallTools call_tools = CallTools::ReadOnly;
  const protocol::SchemaRegistry* schemas = nullptr;
  const RequirementCatalog* catalog = nullptr;
  Deadline run_deadline = Deadline::never();
  Role role = Role::Server;            // the target's role: Client runs client-role scenarios (client_runner.hpp)
  bool cooperative_client = false;     // the client follows the driver protocol (scenarios tagged "cooperative" run)
  bool auth_client = false;            // --auth: the endpoint is protected (scenarios tagged "auth" run)
  // Handshakes seen earlier in the run (handshake_memo.hpp): a scenario whose SKIP one of them
  // decides is not started. Null: every scenario starts the target (run_suite sets one).
  std::shared_ptr<HandshakeMemo> handshakes;

  // The transport of the target under test, whichever role it plays ("stdio", "http", ...).
  transport::TransportKind transport() const { return role == Role::Client ? carrier.transport : target.transport; }
};

ScenarioResult run_scenario(const Scenario& scenario, const RunConfig& config);

}  // namespace mcpspec::scenario
