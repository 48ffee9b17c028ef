#pragma once
// Text hygiene for anything a target sends us, which can be arbitrary bytes: reports, baselines
// and logs must stay valid UTF-8, must not carry terminal escape sequences, and must stay readable
// when a frame is megabytes long.
#include <cstddef>
#include <string>
#include <string_view>

namespace mcpspec::util {

// Valid UTF-8 out: every byte that does not start a well-formed sequence (overlong forms,
// surrogates and code points above U+10FFFF included) becomes U+FFFD.
std::string valid_utf8(std::string_view in);

// valid_utf8() plus: control characters (C0 except tab and, if keep_newlines, line feed; DEL; C1)
// and the non-characters U+FFFE/U+FFFF become visible "\uXXXX" text. The result is safe for a
// terminal, for Markdown and (after escaping markup) for XML 1.0.
std::string clean_text(std::string_view in, bool keep_newlines);

// Cuts `s` (valid UTF-8) to at most `max_bytes` on a character boundary and says how much went.
std::string truncate_text(const std::string& s, std::size_t max_bytes);

// At most `max_lines` lines of at most `max_line_bytes` each, with a note of what was dropped.
std::string limit_lines(const std::string& s, std::size_t max_lines, std::size_t max_line_bytes);

// First line of `s`, cut to `max_bytes` (for one-line messages and attributes).
std::string first_line(const std::string& s, std::size_t max_bytes);

}  // namespace mcpspec::util
