// What a note's Markdown says about itself: its title and a one-line description.
#pragma once

#include <string>
#include <string_view>

namespace meditation {

struct NoteSummary {
  std::string title;        // front matter `title:`, else the first heading, else `fallback_title`
  std::string description;  // the first line of prose (at most kMaxDescription bytes), else kDefaultDescription
};

inline constexpr std::size_t kMaxDescription = 160;
inline constexpr const char* kDefaultDescription = "Meditation note";

NoteSummary summarize_note(std::string_view markdown, const std::string& fallback_title);

// ASCII case folding: the search is case-insensitive for ASCII letters; other bytes (UTF-8)
// compare as they are.
std::string fold_case(std::string_view text);

}  // namespace meditation
