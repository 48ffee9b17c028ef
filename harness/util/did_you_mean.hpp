#pragma once
// "Did you mean ...?" for names a user typed (scenario ids, tags, areas, requirement ids): the
// known names closest to the typed one by edit distance, so a typo gets an answer instead of an
// empty run.
#include <cstddef>
#include <string>
#include <vector>

namespace mcpspec::util {

// Edit distance (insertions, deletions, substitutions, each 1), case-insensitive.
std::size_t edit_distance(const std::string& a, const std::string& b);

// Up to `max` candidates closest to `word`, nearest first (ties in candidate order), only those
// within a third of the word's length (at least 2 edits), duplicates removed.
std::vector<std::string> closest_names(const std::string& word, const std::vector<std::string>& candidates,
                                       std::size_t max = 3);

// " (did you mean 'a', 'b'?)" or "" when nothing is close.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace mcpspec::util
