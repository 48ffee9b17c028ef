#pragma once
// A scenario as loaded: top-level settings parsed into fields, steps kept as (validated) JSON and
// interpreted by the runner.
#include "harness/protocol/versions.hpp"
#include "harness/results/result.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcpspec::scenario {

// Which side of MCP the target under test plays (a scenario's "role", a run's role).
enum class Role { Server, Client };
const char* role_name(Role r);  // "server" / "client"

// How much of each message the schema monitor checks (a scenario's "validate").
enum class ValidateMode { Full, Envelope, Off };

// Which listed tools generic scenarios and the live fuzzer may really call (--call-tools).
enum class CallTools { None, ReadOnly, All };
const char* call_tools_name(CallTools c);  // "none" / "readonly" / "all"

struct Scenario {
  std::string id, title, description;
  Role role = Role::Server;
  std::string file;      // path as found
  std::string dir;       // folder of the file (workdir.from and fixtures resolve from here)
  std::string area;      // second segment of the id ("lifecycle" in "mcp/lifecycle/x")
  std::vector<std::string> requirements;
  Level level = Level::Must;
  protocol::VersionRange protocol;
  std::vector<std::string> server_capabilities, client_capabilities, transports, tags;  // transports: names
  std::string fixture = "initialized";
  nlohmann::json fixture_steps = nlohmann::json::array();  // resolved from the fixture file
  // The fixture that stands in for `fixture` at a modern version (2026-07-28 and later), named by
  // the fixture file's "at_modern" ("initialized" -> "discovered": server/discover instead of the
  // handshake); empty when the fixture file names none (then `fixture` serves every version).
  std::string modern_fixture;
  nlohmann::json modern_fixture_steps = nlohmann::json::array();
  std::optional<int> timeout_ms;
  ValidateMode validate = ValidateMode::Full;
  std::map<std::string, bool> monitors;  // overrides; absent = on
  std::string workdir_from;              // absolute path, empty = no workdir
  std::map<std::string, std::string> env;
  nlohmann::json steps = nlohmann::json::array();
  // Client role (docs/testing-clients.md): what a cooperative client is asked to do (MCPSPEC_CONTEXT)
  // and the capabilities the harness declares as the server (null: the default set).
  nlohmann::json client_context = nlohmann::json::object();
  nlohmann::json declare = nullptr;
  // The modern versions the harness serves statelessly (null: the run's version when it is modern).
  nlohmann::json serve_versions = nullptr;
  // Client role over a network transport: how the harness's server end behaves (response mode,
  // early stream closes; docs/testing-clients.md). Other carriers ignore it.
  nlohmann::json transport_options = nlohmann::json::object();
  // Client role: run a loopback HTTP listener nothing may reach (variable `fetch_trap`: its `url`
  // and the `requests` that reached it), for data the client must never fetch (JSD-06).
  bool fetch_trap = false;
  // Server role: what the harness, as the client, answers the target's requests with, per method:
  // a list of {"result": ...} or {"error": ...} used in order (the last one repeats). A method not
  // listed gets the default answer (ping: an empty result; anything else: -32601). A replayed
  // trace needs it: the recorded client's answers decide what the server does next.
  nlohmann::json answers = nlohmann::json::object();

  // The fixture (its name, its steps) a run at `version` starts from.
  const std::string& fixture_at(std::string_view version) const;
  const nlohmann::json& fixture_steps_at(std::string_view version) const;

  bool monitor_on(const std::string& name) const {
    auto it = monitors.find(name);
    return it == monitors.end() || it->second;
  }
};

Level parse_level(const std::string& s);  // "MUST" / "SHOULD" / "MAY" (anything else: INFO)

}  // namespace mcpspec::scenario
