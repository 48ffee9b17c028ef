// Line-level Markdown reading shared by title, criteria and output handling: walking the lines
// that are prose (outside fenced code blocks) and recognising ATX headings.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

namespace chant {

struct Heading {
  int level = 0;
  std::string_view text;  // trimmed, closing #'s removed
};

std::optional<Heading> parse_heading(std::string_view line);

// Calls `visit` for every line outside ``` / ~~~ fenced blocks (the fence lines themselves are
// skipped). `offset` variant also passes the byte offset of the line start.
void for_each_prose_line(std::string_view text, const std::function<void(std::string_view)>& visit);
void for_each_prose_line_at(std::string_view text,
                            const std::function<void(std::string_view, std::size_t)>& visit);

}  // namespace chant
