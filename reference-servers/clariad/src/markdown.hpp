#pragma once
// Small Markdown builders. User text goes through these so that a '|' or a newline in an
// input cannot break a table or start a heading in the generated document.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace clariad {

// One line of user text: whitespace collapsed, shortened to max_bytes.
std::string md_inline(std::string_view text, std::size_t max_bytes = 2000);

// A table cell: like md_inline, with '|' escaped.
std::string md_cell(std::string_view text, std::size_t max_bytes = 400);

// A GitHub-flavoured table; cells are escaped here, callers pass plain text.
std::string md_table(const std::vector<std::string>& header,
                     const std::vector<std::vector<std::string>>& rows);

// "- item" lines (escaped as inline text), or "- _none_" when empty.
std::string md_bullets(const std::vector<std::string>& items);

}  // namespace clariad
