#include "harness/cli/selection.hpp"

#include "harness/cli/commands.hpp"
#include "harness/cli/paths.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/scenario/loader.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <iostream>

namespace mcpspec::cli {

std::vector<scenario::Scenario> select_scenarios(const Selection& sel) {
  std::vector<std::string> paths = sel.paths;
  if (paths.empty()) paths.push_back(home_dir() + "/scenarios/mcp");
  auto loaded = scenario::load_scenarios(paths);
  if (!loaded.errors.empty()) {
    for (const auto& e : loaded.errors) std::cerr << e.text() << "\n";
    throw UsageError(std::to_string(loaded.errors.size()) + " problem(s) in scenario files; nothing was run");
  }
  std::vector<scenario::Scenario> out;
  for (auto& s : loaded.scenarios) {
    bool id_ok = sel.filters.empty() || std::any_of(sel.filters.begin(), sel.filters.end(), [&](const std::string& g) {
                   return fnmatch(g.c_str(), s.id.c_str(), 0) == 0;
                 });
    bool tag_ok = sel.tags.empty() || std::any_of(sel.tags.begin(), sel.tags.end(), [&](const std::string& t) {
                    return std::find(s.tags.begin(), s.tags.end(), t) != s.tags.end();
                  });
    if (id_ok && tag_ok) out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> protocols_from(const std::string& arg) {
  if (arg == "all") return protocol::known_versions();
  if (!protocol::is_known_version(arg)) {
    std::string known;
    for (const auto& v : protocol::known_versions()) known += " " + v;
    if (protocol::is_described_only_version(arg))
      throw UsageError("--protocol " + arg + " is not yet supported for runs: mcpspec carries its message schemas and "
                       "requirement catalog, but cannot yet hold a stateless (initialize-free) session (runnable:" +
                       known + ", or all)");
    throw UsageError("--protocol " + arg + " is not a version mcpspec knows (known:" + known + ", or all)");
  }
  return {arg};
}

}  // namespace mcpspec::cli
