// `mcpspec explain ID`: what a requirement id or a scenario id stands for. A requirement: its
// text, level, spec section, the protocol versions that have it and the scenarios that check it.
// A scenario: its title, description, requirements (with their text), versions and tags. An
// unknown id is a usage error with the nearest known ids.
#include "harness/cli/commands.hpp"
#include "harness/cli/paths.hpp"
#include "harness/cli/selection.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/util/did_you_mean.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <set>

namespace mcpspec::cli {

namespace {

using scenario::RequirementCatalog;

// The requirement as the newest version that has it states it, and every version that has it.
std::optional<std::pair<scenario::Requirement, std::vector<std::string>>> find_requirement(const std::string& id) {
  const auto& catalog = RequirementCatalog::builtin();
  std::optional<scenario::Requirement> newest;
  std::vector<std::string> versions;
  for (const auto& v : catalog.versions()) {
    if (auto r = catalog.find(v, id)) {
      newest = *r;
      versions.push_back(v);
    }
  }
  if (!newest) return std::nullopt;
  return std::pair{*newest, versions};
}

void print_requirement(const scenario::Requirement& r, const std::vector<std::string>& versions,
                       const std::vector<scenario::Scenario>& scenarios) {
  const auto& catalog = RequirementCatalog::builtin();
  std::cout << fmt::format("{} ({} {}){}\n  {}\n", r.id, level_name(r.level), r.keyword,
                           r.heuristic ? ", checked heuristically" : "", r.summary);
  std::cout << fmt::format("  area:         {} ({})\n", r.area, catalog.area_title(versions.back(), r.area));
  std::cout << fmt::format("  spec section: {} (protocol {})\n", r.section, versions.back());
  std::cout << fmt::format("  versions:     {}\n", fmt::join(versions, ", "));
  if (!r.testable.empty()) std::cout << fmt::format("  testable:     {}\n", r.testable);
  std::vector<const scenario::Scenario*> checking;
  for (const auto& s : scenarios)
    if (std::find(s.requirements.begin(), s.requirements.end(), r.id) != s.requirements.end()) checking.push_back(&s);
  if (checking.empty()) {
    std::cout << "  no bundled scenario checks it (monitors may: see docs/coverage.md)\n";
    return;
  }
  std::cout << fmt::format("  checked by {} scenario(s):\n", checking.size());
  for (const auto* s : checking) std::cout << fmt::format("    {}  {}\n", s->id, s->title);
}

void print_scenario(const scenario::Scenario& s) {
  std::cout << fmt::format("{} ({}, {} target)\n  {}\n", s.id, level_name(s.level), scenario::role_name(s.role), s.title);
  if (!s.description.empty()) std::cout << "  " << s.description << "\n";
  std::cout << fmt::format("  file:      {}\n", s.file);
  std::cout << fmt::format("  protocol:  {}\n", s.protocol.text());
  if (!s.tags.empty()) std::cout << fmt::format("  tags:      {}\n", fmt::join(s.tags, ", "));
  if (!s.server_capabilities.empty())
    std::cout << fmt::format("  needs:     server capabilities {}\n", fmt::join(s.server_capabilities, ", "));
  std::cout << "  requirements:\n";
  for (const auto& id : s.requirements) {
    auto found = find_requirement(id);
    std::cout << fmt::format("    {}  {}\n", id,
                             found ? fmt::format("{}: {} [{}]", level_name(found->first.level), found->first.summary,
                                                 found->first.section)
                                   : std::string("(not in the requirement catalog)"));
  }
  std::cout << fmt::format("  run it:    mcpspec run --server CMD --filter '{}' --wire\n", s.id);
}

}  // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
  auto id = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("explain", "Explain a requirement id (e.g. TOOL-17) or a scenario id");
  cmd->add_option("id", *id, "Requirement id or scenario id")->required();
  cmd->callback([id, &exit_code] {
    // Every bundled suite, both roles: the generic one and the reference systems' own.
    const auto scenarios = select_scenarios(Selection{{home_dir() + "/scenarios"}, {}, {}});
    if (auto req = find_requirement(*id)) {
      print_requirement(req->first, req->second, scenarios);
      exit_code = 0;
      return;
    }
    for (const auto& s : scenarios) {
      if (s.id == *id) {
        print_scenario(s);
        exit_code = 0;
        return;
      }
    }
    std::set<std::string> known;
    const auto& catalog = RequirementCatalog::builtin();
    for (const auto& v : catalog.versions())
      for (const auto& r : catalog.all(v)) known.insert(r.id);
    for (const auto& s : scenarios) known.insert(s.id);
    throw UsageError(fmt::format("'{}' is neither a requirement id nor a scenario id{}", *id,
                                 util::did_you_mean(*id, {known.begin(), known.end()})));
  });
}

// "mcpspec 0.1.0" and the protocol versions this build can test.
std::string version_text() {
  return fmt::format("mcpspec {}\nprotocol versions: {} (default {})", MCPSPEC_VERSION,
                     fmt::join(protocol::known_versions(), ", "), protocol::latest_version());
}

}  // namespace mcpspec::cli
