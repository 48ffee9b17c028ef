// `mcpspec coverage`: how many testable MUST and SHOULD requirements have at least one scenario.
#include "harness/authcheck/auth_checks.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/selection.hpp"
#include "harness/protocol/era.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/scenario/requirements.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <set>

namespace mcpspec::cli {

namespace {

struct CoverageArgs {
  Selection selection;
  std::string protocol = "2025-11-25";
  std::string role = "server";
  bool missing = false;
  bool core = false;
};

// The core areas of the 2026-07-28 coverage goal, by requirement id prefix (issue 27: base,
// _meta, versions, discovery, result types, input rounds, subscriptions, transports, headers,
// caching and the server features).
bool in_core(const std::string& id) {
  static const char* const kPrefixes[] = {"BASE-", "META-", "VER-", "DISC-", "RT-", "MRTR-", "SUB-", "STDIO-", "HTTP-",
                                          "HDR-", "CACHE-", "TOOL-", "RES-", "PR-", "CMP-", "PAG-", "PROG-", "CAN-", "ERR-"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](const char* p) { return id.rfind(p, 0) == 0; });
}

// A requirement can be tested against a target of `role` when its testability says so.
bool testable_for(const scenario::Requirement& r, const std::string& role) {
  if (role == "any") return r.testable != "none";
  return r.testable == "both" || r.testable == role;
}

}  // namespace

void add_coverage_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<CoverageArgs>();
  auto* cmd = app.add_subcommand("coverage", "Per area: testable MUST/SHOULD requirements covered by at least one scenario");
  cmd->add_option("paths", a->selection.paths, "Scenario files or folders (default: scenarios/mcp)");
  cmd->add_option("--protocol", a->protocol, "Protocol version whose catalog is used")->capture_default_str();
  cmd->add_option("--role", a->role, "Count requirements testable against this role")
      ->check(CLI::IsMember({"server", "client", "any"}))
      ->capture_default_str();
  cmd->add_flag("--missing", a->missing, "List the uncovered requirement ids");
  cmd->add_flag("--core", a->core,
                "Also print the share of MUST rows covered in the core areas (BASE, META, VER, DISC, RT, MRTR, SUB, "
                "STDIO, HTTP, HDR, CACHE, TOOL, RES, PR, CMP, PAG, PROG, CAN, ERR)");
  cmd->callback([a, &exit_code] {
    auto versions = protocols_from(a->protocol);
    const auto& catalog = scenario::RequirementCatalog::builtin();
    auto scenarios = select_scenarios(a->selection);
    std::set<std::string> covered;
    // The monitors check these on every message of every scenario (docs/scenario-format.md).
    if (!scenarios.empty() && a->role != "client")
      for (const char* id : {"STDIO-02", "STDIO-03", "BASE-01", "BASE-03", "BASE-04", "BASE-05", "BASE-06", "BASE-09", "BASE-10",
                             "BASE-11", "BASE-12", "PROG-03", "PROG-06", "PROG-10", "LOG-01", "LC-06", "LC-15"})
        covered.insert(id);
    // `run --auth` judges these authorization rows of a server (docs/authorization.md).
    if (a->role != "client")
      for (const auto& id : authcheck::judged_requirements()) covered.insert(id);
    // At a modern version the modern monitor (harness/monitor/modern_results.hpp, input_requests.hpp,
    // schema_validity.hpp) checks these too.
    if (!scenarios.empty() && a->role != "client" && protocol::is_modern_version(versions.front()))
      for (const char* id : {"RT-01", "BASE-07", "BASE-23", "MRTR-02", "MRTR-03", "MRTR-04", "MRTR-05", "CACHE-01",
                             "CACHE-02", "DISC-04", "ERR-03", "ERR-04", "SUB-01", "SUB-02", "SUB-05", "SUB-13", "STDIO-09",
                             "MRTR-01", "HTTP-27", "CAN-10", "META-06", "HDR-09", "BASE-19", "BASE-20", "BASE-24",
                             "RT-04", "ELI-03", "ELI-04", "ELI-06", "ELI-07", "SMP-04", "SMP-06", "SMP-07", "SMP-08",
                             "SMP-09", "SMP-10", "SMP-19", "ROOT-06", "JSD-05"})
        covered.insert(id);
    // The client-role monitors (docs/testing-clients.md) check these on every client message.
    bool any_client = std::any_of(scenarios.begin(), scenarios.end(), [](const auto& s) { return s.role == scenario::Role::Client; });
    if (any_client && a->role == "client")
      for (const char* id : {"STDIO-02", "STDIO-04", "BASE-01", "BASE-03", "BASE-04", "BASE-05", "BASE-06", "BASE-11",
                             "BASE-12", "LC-01", "LC-02", "LC-04", "LC-05", "LC-15", "RES-04", "CAN-01", "CAN-02",
                             "PROG-01", "PROG-02", "PROG-03", "PROG-06"})
        covered.insert(id);
    // The modern_requests monitor (harness/monitor/modern_requests.hpp) at 2026-07-28 and later.
    if (any_client && a->role == "client" && protocol::is_modern(versions.front()))
      for (const char* id : {"META-01", "META-03", "BASE-23", "STDIO-08", "BASE-19", "BASE-20", "BASE-24"})
        covered.insert(id);
    for (const auto& s : scenarios) {
      if (!s.protocol.contains(versions.front())) continue;
      if (a->role != "any" && scenario::role_name(s.role) != a->role) continue;
      for (const auto& r : s.requirements) covered.insert(r);
    }
    struct Counts {
      int must = 0, must_cov = 0, should = 0, should_cov = 0;
      std::vector<std::string> missing;
    };
    std::map<std::string, Counts> by_area;
    Counts total, core;
    for (const auto& r : catalog.all(versions.front())) {
      if (!testable_for(r, a->role) || r.id.rfind("MCPSPEC-", 0) == 0) continue;
      if (r.level != Level::Must && r.level != Level::Should) continue;
      bool cov = covered.count(r.id) > 0;
      if (r.level == Level::Must && in_core(r.id)) {
        ++core.must;
        core.must_cov += cov;
      }
      for (Counts* c : {&by_area[r.area], &total}) {
        if (r.level == Level::Must) {
          ++c->must;
          c->must_cov += cov;
        } else {
          ++c->should;
          c->should_cov += cov;
        }
        if (!cov && c != &total) c->missing.push_back(r.id);
      }
    }
    std::cout << fmt::format("Coverage of protocol {} requirements testable against a {} ({} scenarios;\n"
                             "requirements the monitors check on every message count as covered)\n\n",
                             versions.front(), a->role, scenarios.size());
    std::cout << fmt::format("{:<44} {:>8} {:>8}\n", "area", "MUST", "SHOULD");
    auto cell = [](int c, int t) { return t == 0 ? std::string("-") : fmt::format("{}/{}", c, t); };
    for (const auto& [area, c] : by_area) {
      std::cout << fmt::format("{:<44} {:>8} {:>8}\n", catalog.area_title(versions.front(), area),
                               cell(c.must_cov, c.must), cell(c.should_cov, c.should));
      if (a->missing && !c.missing.empty()) {
        std::string ids;
        for (const auto& id : c.missing) ids += " " + id;
        std::cout << "    not covered:" << ids << "\n";
      }
    }
    std::cout << fmt::format("{:<44} {:>8} {:>8}\n", "total", cell(total.must_cov, total.must),
                             cell(total.should_cov, total.should));
    if (a->core)
      std::cout << fmt::format("core areas, MUST: {}/{} ({:.1f} %)\n", core.must_cov, core.must,
                               core.must == 0 ? 0.0 : 100.0 * core.must_cov / core.must);
    exit_code = 0;
  });
}

}  // namespace mcpspec::cli
