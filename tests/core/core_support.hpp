#pragma once
// Shared helpers of the harness-core tests: private temporary folders, scenario runs against a
// command, and waits on transport events. Every wait here has a generous deadline that only
// bounds a hang; no test asserts how fast anything is.
#include "harness/protocol/schema_registry.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/runner.hpp"
#include "harness/transport/stdio_transport.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcpspec::coretest {

// A fresh folder under the system temp dir, removed with everything in it at the end of scope.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "mcpspec-core-test-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // Writes `text` to `relative` (parent folders created) and returns the full path.
  std::string write(const std::string& relative, const std::string& text) const {
    std::filesystem::path p = std::filesystem::path(path_) / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + p.string());
    return p.string();
  }

 private:
  std::string path_;
};

// A scenario document: the given id, requirement and steps (JSON text), then `extra_json`'s
// top-level keys on top (fixture, env, timeout_ms, ...).
inline nlohmann::json scenario_json(const std::string& id, const std::string& requirement, const std::string& steps_json,
                                    const std::string& extra_json = "{}") {
  nlohmann::json doc = {{"id", id},
                        {"title", id},
                        {"role", "server"},
                        {"requirements", {requirement}},
                        {"level", "MUST"},
                        {"steps", nlohmann::json::parse(steps_json)}};
  // Named: items() of a temporary would dangle inside the loop.
  const nlohmann::json extra = nlohmann::json::parse(extra_json);
  for (auto& [k, v] : extra.items()) doc[k] = v;
  return doc;
}

inline std::string testserver_path() { return std::string(MCPSPEC_BINARY_DIR) + "/mcpspec-testserver"; }

// Shell fakes live next to the tests; they are run through /bin/sh so no exec bit is needed.
inline std::string fake_target(const std::string& script) {
  return "/bin/sh '" + std::string(MCPSPEC_SOURCE_DIR) + "/tests/core/targets/" + script + "'";
}

// The handshake most end-to-end tests start from (the same shape as the generic suite's fixture).
inline std::string initialized_fixture_text() {
  return R"({"name": "initialized", "steps": [
    {"request": {"method": "initialize", "params": {"protocolVersion": "${protocol}", "capabilities": {},
                 "clientInfo": {"name": "mcpspec-core-test", "version": "1"}}},
     "expect": {"result": {"protocolVersion": {"$type": "string"}}},
     "capture": {"init": "/result", "negotiated": "/result/protocolVersion"}},
    {"notify": {"method": "notifications/initialized"}}
  ]})";
}

// A TargetSpec that starts `command` with the stdio transport, as `mcpspec run --server` does.
inline scenario::TargetSpec command_target(const std::string& command, std::size_t max_message_bytes = 16u << 20) {
  scenario::TargetSpec t;
  t.description = command;
  t.transport = transport::TransportKind::Stdio;
  t.make = [command, max_message_bytes](const std::string& workdir, const std::map<std::string, std::string>& env) {
    transport::StdioOptions o;
    o.spawn.command = command;
    o.spawn.workdir = workdir;
    o.spawn.env = env;
    o.max_message_bytes = max_message_bytes;
    o.stop_grace_ms = 200;
    return std::unique_ptr<transport::Transport>(new transport::StdioTransport(o));
  };
  return t;
}

inline scenario::RunConfig run_config(const std::string& command, const std::string& version = "2025-06-18") {
  scenario::RunConfig c;
  c.target = command_target(command);
  c.proposed_version = version;
  c.timeout_ms = 20000;  // generous: the machine is shared; a failing wait is asserted by content, not time
  c.startup_timeout_ms = 30000;
  c.schemas = &protocol::SchemaRegistry::builtin();
  c.catalog = &scenario::RequirementCatalog::builtin();
  return c;
}

// Loads one scenario from text written into `dir` (so fixtures/ next to it is found); fails the
// test with the loader's messages when it does not load.
inline scenario::Scenario load_one(const TempDir& dir, const std::string& text, const std::string& name = "s.json") {
  auto out = scenario::load_scenario_text(text, dir.path() + "/" + name);
  std::string errors;
  for (const auto& e : out.errors) errors += e.text() + "\n";
  INFO(errors);
  REQUIRE(out.errors.empty());
  REQUIRE(out.scenarios.size() == 1);
  return out.scenarios.front();
}

// A folder with fixtures/initialized.json, ready for scenarios that use the default fixture.
class ScenarioDir : public TempDir {
 public:
  ScenarioDir() { write("fixtures/initialized.json", initialized_fixture_text()); }
};

// Everything a result says, for INFO() when an assertion fails.
inline std::string describe(const ScenarioResult& r) {
  std::string s = std::string("verdict ") + verdict_name(r.verdict) + "; reason: " + r.reason + "\nfindings:\n";
  for (const auto& f : r.findings) {
    s += "  [";
    for (const auto& q : f.requirements) s += q + " ";
    s += std::string(level_name(f.level)) + "] step " + std::to_string(f.step) + ": " + f.message + "\n";
  }
  s += "wire:\n";
  for (const auto& w : r.wire) s += std::string("  ") + wire_dir_symbol(w.dir) + " " + w.text.substr(0, 300) + "\n";
  return s;
}

inline bool has_requirement(const ScenarioResult& r, const std::string& req) {
  for (const auto& f : r.findings)
    for (const auto& q : f.requirements)
      if (q == req) return true;
  return false;
}

// Runs a scenario text (in its own ScenarioDir) against a command.
inline ScenarioResult run_text(const std::string& text, const std::string& command,
                               const std::string& version = "2025-06-18") {
  ScenarioDir dir;
  auto s = load_one(dir, text);
  return scenario::run_scenario(s, run_config(command, version));
}

// Transport events until `done` says stop or the (generous) deadline passes.
inline std::vector<transport::Event> events_until(transport::Transport& t,
                                                  const std::function<bool(const transport::Event&)>& done,
                                                  int deadline_ms = 30000) {
  std::vector<transport::Event> out;
  auto deadline = Deadline::after_ms(deadline_ms);
  for (;;) {
    auto e = t.receive(deadline);
    if (e.type == transport::Event::Type::Timeout) break;
    out.push_back(e);
    if (done(e)) break;
  }
  return out;
}

inline bool is_exit(const transport::Event& e) { return e.type == transport::Event::Type::Exited; }

}  // namespace mcpspec::coretest
