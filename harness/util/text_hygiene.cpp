#include "harness/util/text_hygiene.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace mcpspec::util {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the well-formed UTF-8 sequence at in[i] (RFC 3629 table), 0 when it is not one.
std::size_t utf8_sequence_length(std::string_view in, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(in[i + k]); };
  const std::size_t left = in.size() - i;
  const unsigned char c = b(0);
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  auto cont = [&](std::size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return k < left && b(k) >= lo && b(k) <= hi;
  };
  if (c >= 0xC2 && c <= 0xDF) {
    if (!cont(1)) return 0;
    cp = ((c & 0x1Fu) << 6) | (b(1) & 0x3Fu);
    return 2;
  }
  if (c >= 0xE0 && c <= 0xEF) {
    // E0 needs A0..BF (no overlongs), ED needs 80..9F (no surrogates).
    const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80;
    const unsigned char hi = c == 0xED ? 0x9F : 0xBF;
    if (!cont(1, lo, hi) || !cont(2)) return 0;
    cp = ((c & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned char lo = c == 0xF0 ? 0x90 : 0x80;
    const unsigned char hi = c == 0xF4 ? 0x8F : 0xBF;
    if (!cont(1, lo, hi) || !cont(2) || !cont(3)) return 0;
    cp = ((c & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
    return 4;
  }
  return 0;
}

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Largest prefix length <= max that does not split a UTF-8 sequence.
std::size_t boundary_at_most(const std::string& s, std::size_t max) {
  if (max >= s.size()) return s.size();
  std::size_t n = max;
  while (n > 0 && is_continuation(s[n])) --n;
  return n;
}

}  // namespace

std::string valid_utf8(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8_sequence_length(in, i, cp);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(in.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string clean_text(std::string_view in, bool keep_newlines) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8_sequence_length(in, i, cp);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    const bool allowed_space = cp == '\t' || (keep_newlines && cp == '\n');
    const bool control = (cp < 0x20 && !allowed_space) || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
    if (control || cp == 0xFFFE || cp == 0xFFFF) {
      out += fmt::format("\\u{:04x}", cp);
    } else {
      out.append(in.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string truncate_text(const std::string& s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  const std::size_t keep = boundary_at_most(s, max_bytes);
  return s.substr(0, keep) + fmt::format("... [{} more bytes]", s.size() - keep);
}

std::string limit_lines(const std::string& s, std::size_t max_lines, std::size_t max_line_bytes) {
  std::string out;
  std::size_t lines = 0, pos = 0;
  while (pos <= s.size()) {
    std::size_t end = s.find('\n', pos);
    if (end == std::string::npos) end = s.size();
    if (lines == max_lines) {
      std::size_t rest = 1;
      for (std::size_t k = end; k < s.size(); ++k) rest += s[k] == '\n';
      out += fmt::format("\n... [{} more lines]", rest);
      return out;
    }
    if (lines > 0) out += '\n';
    out += truncate_text(s.substr(pos, end - pos), max_line_bytes);
    ++lines;
    if (end == s.size()) break;
    pos = end + 1;
  }
  return out;
}

std::string first_line(const std::string& s, std::size_t max_bytes) {
  const std::size_t nl = s.find('\n');
  std::string line = s.substr(0, nl);
  if (nl != std::string::npos && nl + 1 < s.size()) line += " ...";
  return truncate_text(line, max_bytes);
}

}  // namespace mcpspec::util
