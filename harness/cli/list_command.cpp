// `mcpspec list`: the scenarios a run would select, with what they test.
#include "harness/cli/commands.hpp"
#include "harness/cli/selection.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace mcpspec::cli {

void add_list_command(CLI::App& app, int& exit_code) {
  auto sel = std::make_shared<Selection>();
  auto json_out = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("list", "List scenarios with their requirement ids, level and versions");
  cmd->add_option("paths", sel->paths, "Scenario files or folders (default: scenarios/mcp)");
  cmd->add_option("--filter", sel->filters, "Only ids matching this glob (repeatable)")->allow_extra_args(false);
  cmd->add_option("--tag", sel->tags, "Only scenarios with this tag (repeatable)")->allow_extra_args(false);
  cmd->add_flag("--json", *json_out, "Print JSON instead of a table");
  cmd->callback([sel, json_out, &exit_code] {
    auto scenarios = select_scenarios(*sel);
    if (*json_out) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& s : scenarios)
        out.push_back({{"id", s.id}, {"title", s.title}, {"file", s.file}, {"role", scenario::role_name(s.role)},
                       {"requirements", s.requirements}, {"level", level_name(s.level)},
                       {"protocol", s.protocol.text()}, {"tags", s.tags}, {"requires", s.server_capabilities}});
      std::cout << out.dump(2) << "\n";
    } else {
      for (const auto& s : scenarios) {
        std::string reqs;
        for (const auto& r : s.requirements) reqs += (reqs.empty() ? "" : ",") + r;
        std::cout << fmt::format("{:<58} {:<6} {:<22} {:<12} {}\n", s.id, level_name(s.level), reqs, s.protocol.text(),
                                 s.title);
      }
      std::cout << fmt::format("{} scenario(s)\n", scenarios.size());
    }
    exit_code = 0;
  });
}

}  // namespace mcpspec::cli
