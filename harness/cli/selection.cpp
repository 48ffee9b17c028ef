#include "harness/cli/selection.hpp"

#include "harness/cli/commands.hpp"
#include "harness/cli/paths.hpp"
#include "harness/protocol/versions.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/util/did_you_mean.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <iostream>
#include <set>

namespace mcpspec::cli {

namespace {

bool has_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

std::vector<std::string> segments(const std::string& s) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  for (auto slash = s.find('/'); slash != std::string::npos; slash = s.find('/', pos)) {
    out.push_back(s.substr(pos, slash - pos));
    pos = slash + 1;
  }
  out.push_back(s.substr(pos));
  return out;
}

// What a filter that matched nothing was probably meant to be. A plain id: the closest ids. A glob:
// each plain segment no id has at that place (an area such as "tols" in "mcp/tols/*") replaced by
// the closest segment that is there, offered when the repaired glob matches.
std::string filter_hint(const std::string& filter, const std::vector<scenario::Scenario>& all) {
  std::vector<std::string> ids;
  for (const auto& s : all) ids.push_back(s.id);
  if (!has_glob(filter)) return util::did_you_mean(filter, ids);
  auto parts = segments(filter);
  bool repaired = false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (has_glob(parts[i])) continue;
    std::set<std::string> seen;
    for (const auto& id : ids)
      if (auto segs = segments(id); segs.size() > i) seen.insert(segs[i]);
    if (seen.count(parts[i])) continue;
    const auto near = util::closest_names(parts[i], {seen.begin(), seen.end()}, 1);
    if (near.empty()) return "";
    parts[i] = near.front();
    repaired = true;
  }
  if (!repaired) return "";
  std::string fixed = parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) fixed += "/" + parts[i];
  const bool matches = std::any_of(ids.begin(), ids.end(), [&](const auto& id) { return fnmatch(fixed.c_str(), id.c_str(), 0) == 0; });
  return matches ? " (did you mean '" + fixed + "'?)" : "";
}

// One line per --filter or --tag that selects no scenario at all, with a suggestion when one is near.
std::vector<std::string> unmatched_selectors(const Selection& sel, const std::vector<scenario::Scenario>& all) {
  std::vector<std::string> out;
  for (const auto& f : sel.filters) {
    if (std::none_of(all.begin(), all.end(), [&](const auto& s) { return fnmatch(f.c_str(), s.id.c_str(), 0) == 0; }))
      out.push_back("--filter '" + f + "' matches no scenario id" + filter_hint(f, all));
  }
  std::vector<std::string> tags;
  for (const auto& s : all) tags.insert(tags.end(), s.tags.begin(), s.tags.end());
  for (const auto& t : sel.tags) {
    if (std::find(tags.begin(), tags.end(), t) == tags.end())
      out.push_back("--tag '" + t + "' is on no scenario" + util::did_you_mean(t, tags));
  }
  return out;
}

}  // namespace

std::vector<scenario::Scenario> select_scenarios(const Selection& sel) {
  std::vector<std::string> paths = sel.paths;
  if (paths.empty()) paths.push_back(home_dir() + "/scenarios/mcp");
  auto loaded = scenario::load_scenarios(paths);
  if (!loaded.errors.empty()) {
    for (const auto& e : loaded.errors) std::cerr << e.text() << "\n";
    throw UsageError(std::to_string(loaded.errors.size()) + " problem(s) in scenario files; nothing was run");
  }
  const auto unmatched = unmatched_selectors(sel, loaded.scenarios);
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
  // A selector that matches nothing is a typo or a wrong folder: an error when nothing is left to
  // run, a warning when the other selectors still chose something.
  if (out.empty() && !unmatched.empty()) {
    std::string text = "no scenario selected: ";
    for (std::size_t i = 0; i < unmatched.size(); ++i) text += (i ? "; " : "") + unmatched[i];
    throw UsageError(text);
  }
  for (const auto& u : unmatched) std::cerr << "mcpspec: warning: " << u << "\n";
  return out;
}

std::vector<std::string> protocols_from(const std::string& arg) {
  if (arg == "all") return protocol::runnable_versions();
  if (!protocol::is_runnable_version(arg)) {
    std::string known;
    for (const auto& v : protocol::runnable_versions()) known += " " + v;
    throw UsageError("--protocol " + arg + " is not a version mcpspec knows (known:" + known + ", or all)");
  }
  return {arg};
}

}  // namespace mcpspec::cli
