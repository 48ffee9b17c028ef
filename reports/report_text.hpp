#pragma once
// Text helpers of the report writers: XML escaping, JSON laid out for reading, durations for humans,
// on top of the text hygiene every report applies.
#include "harness/util/text_hygiene.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpspec::reports {

// The text hygiene every report applies (harness/util/text_hygiene.hpp).
using util::clean_text;
using util::first_line;
using util::limit_lines;
using util::truncate_text;
using util::valid_utf8;

// XML character data / attribute value from arbitrary bytes (cleaned, markup escaped; in an
// attribute, tab and line feed are kept as character references so parsers do not fold them).
std::string xml_text(std::string_view in);
std::string xml_attr(std::string_view in);

// HTML text or attribute value from arbitrary bytes: cleaned (controls visible, invalid UTF-8
// replaced, line breaks kept) and & < > " ' escaped, so target text can never become markup.
std::string html_text(std::string_view in);

// A one-line JSON object or array laid out over several lines (2-space indent) so that a cut at a
// line limit still shows its structure; anything else comes back unchanged.
std::string pretty_if_json(const std::string& text);

// "12 ms", "0.4 ms", "3.2 s": durations for humans.
std::string human_ms(double ms);

}  // namespace mcpspec::reports
