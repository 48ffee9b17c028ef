#include "harness/util/did_you_mean.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace mcpspec::util {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> closest_names(const std::string& word, const std::vector<std::string>& candidates,
                                       std::size_t max) {
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const auto& c : candidates) {
    if (c == word) continue;
    // Cheap bound first: lengths alone differing more than the limit cannot be close.
    const std::size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap > limit) continue;
    const std::size_t d = edit_distance(word, c);
    if (d <= limit && std::none_of(near.begin(), near.end(), [&](const auto& n) { return n.second == c; }))
      near.emplace_back(d, c);
  }
  std::stable_sort(near.begin(), near.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < near.size() && i < max; ++i) out.push_back(near[i].second);
  return out;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const auto names = closest_names(word, candidates);
  if (names.empty()) return "";
  std::string out = " (did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out + "?)";
}

}  // namespace mcpspec::util
