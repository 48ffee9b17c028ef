// The little Markdown the workflow documents need: sentences of a description, the list items
// under a "## " heading, and replacing one section's body. The documents are our own output, so
// this reads exactly the shapes the workflows write (and tolerates hand edits around them).
#pragma once

#include <string>
#include <vector>

namespace speckit {

std::string trim(const std::string& s);
// Splits prose into sentences at '.', '!', '?' followed by whitespace or the end, and at line
// breaks; each keeps its final punctuation; empty ones are dropped.
std::vector<std::string> sentences(const std::string& text);
// A one-line title: the first sentence without its final '.', cut at a word to `max_chars`.
std::string title_from(const std::string& text, std::size_t max_chars = 60);

// The text of each "- " item under the "## heading" line, up to the next "## " heading.
std::vector<std::string> section_items(const std::string& doc, const std::string& heading);
// The body under "## heading" (without the heading line), or "" when absent.
std::string section_body(const std::string& doc, const std::string& heading);
// The "# " title line's text after `prefix` (e.g. "Feature Specification: "), or "" when absent.
std::string document_title(const std::string& doc, const std::string& prefix);

bool contains_ignoring_case(const std::string& haystack, const std::string& needle);

}  // namespace speckit
