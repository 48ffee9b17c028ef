// Did-you-mean: edit distance and the nearest names offered for a typo.
#include "harness/util/did_you_mean.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec::util;

TEST_CASE("edit distance counts insertions, deletions and substitutions, ignoring case", "[util][did-you-mean]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("tools", "tols") == 1);
  CHECK(edit_distance("ping", "pnig") == 2);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("TOOL-17", "tool-17") == 0);
}

TEST_CASE("closest names: nearest first, within a third of the length, at most three", "[util][did-you-mean]") {
  const std::vector<std::string> areas = {"lifecycle", "tools", "resources", "prompts", "ping", "pagination", "tools"};
  CHECK(closest_names("tols", areas) == std::vector<std::string>{"tools"});
  CHECK(closest_names("pnig", areas) == std::vector<std::string>{"ping"});
  CHECK(closest_names("resorces", areas) == std::vector<std::string>{"resources"});
  CHECK(closest_names("zzzzzz", areas).empty());
  CHECK(closest_names("tools", areas).empty());  // the word itself is no suggestion
  // TOOL-99 comes first but is two edits away: the three one edit away win, in candidate order.
  const std::vector<std::string> ids = {"TOOL-99", "TOOL-01", "TOOL-11", "TOOL-21", "TOOL-70"};
  CHECK(closest_names("TOOL-71", ids) == std::vector<std::string>{"TOOL-01", "TOOL-11", "TOOL-21"});
  CHECK(closest_names("TOOL-71", ids, 5) == std::vector<std::string>{"TOOL-01", "TOOL-11", "TOOL-21", "TOOL-70", "TOOL-99"});
  CHECK(did_you_mean("TOOL-71", ids) == " (did you mean 'TOOL-01', 'TOOL-11', 'TOOL-21'?)");
  CHECK(did_you_mean("nothing-like-it", ids).empty());
}
