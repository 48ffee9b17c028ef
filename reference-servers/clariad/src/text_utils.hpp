#pragma once
// Plain-text analysis used to turn free-form descriptions into document parts. Everything is
// deterministic and ASCII-case based: bytes >= 0x80 (UTF-8) pass through untouched, so user
// text in any language survives, only the heuristics are English-centric.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clariad {

// Runs of whitespace and control characters become one space; ends trimmed.
std::string collapse_whitespace(std::string_view text);

// Number of Unicode code points in valid UTF-8 (what JSON Schema maxLength counts).
std::size_t count_code_points(std::string_view text);

// At most max_bytes bytes, cut at a code point boundary (preferably a space), "..." appended
// when something was cut.
std::string shorten(std::string_view text, std::size_t max_bytes);

// Sentences of one paragraph: split after . ! ? followed by a space (common abbreviations
// such as "e.g." do not end a sentence). Input should be whitespace-collapsed.
std::vector<std::string> split_sentences(std::string_view text);

// Items of a requirements text: one per line (bullets and numbering removed), lines with
// several sentences or ';' split further.
std::vector<std::string> split_items(std::string_view text);

// Lowercase ASCII words separated by single spaces, padded with a space at both ends, for
// whole-word matching with mentions().
std::string normalize_for_matching(std::string_view text);

// Whole-word (or phrase) match in normalized text; a trailing '*' makes it a prefix match
// ("collaborat*" matches "collaboration").
bool mentions(const std::string& normalized, std::string_view term);

// Offset of the first match of term (as in mentions()), or std::string::npos.
std::size_t mention_position(const std::string& normalized, std::string_view term);

// Title from a project description: the first clause without leading filler ("We want to
// build a ..."), at most 7 words, in Title Case. "Untitled Project" when nothing is left.
std::string derive_title(std::string_view description);

// Title Case for ASCII words; words that already contain capitals (AI, iOS) are kept.
std::string title_case(std::string_view phrase);

// "... for <audience> ..." in the description, if it names one.
std::optional<std::string> find_audience(std::string_view description);

// Capabilities the description states itself ("... that lets users track X, share Y and Z").
std::vector<std::string> stated_capabilities(std::string_view description);

// First letter upper case (ASCII only), trailing punctuation removed.
std::string as_item(std::string_view text);

// Lowercase ASCII copy.
std::string to_lower_ascii(std::string_view text);

}  // namespace clariad
