#include "harness/util/string_formats.hpp"

#include <string>

namespace mcpspec::util {

namespace {

bool is_alpha(unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_hex(unsigned char c) { return is_digit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); }

bool is_base64_char(unsigned char c) { return is_alpha(c) || is_digit(c) || c == '+' || c == '/'; }

// RFC 3986 unreserved + gen-delims + sub-delims ('%' is handled separately).
bool is_uri_char(unsigned char c) {
  if (is_alpha(c) || is_digit(c)) return true;
  switch (c) {
    case '-': case '.': case '_': case '~':                                   // unreserved
    case ':': case '/': case '?': case '#': case '[': case ']': case '@':     // gen-delims
    case '!': case '$': case '&': case '\'': case '(': case ')':              // sub-delims
    case '*': case '+': case ',': case ';': case '=':
      return true;
    default:
      return false;
  }
}

std::string describe_char(unsigned char c) {
  if (c == ' ') return "a space";
  if (c < 0x20 || c == 0x7f) return "control character " + std::to_string(c);
  if (c >= 0x80) return "non-ASCII byte " + std::to_string(c);
  return std::string("'") + static_cast<char>(c) + "'";
}

}  // namespace

std::string base64_problem(std::string_view s) {
  // Characters first: a line break or a base64url character says more than the length it causes.
  std::size_t pad = 0;
  while (pad < 2 && pad < s.size() && s[s.size() - 1 - pad] == '=') ++pad;
  for (std::size_t i = 0; i < s.size() - pad; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '=') return "'=' padding at offset " + std::to_string(i) + " is not at the end";
    if (!is_base64_char(c)) return describe_char(c) + " at offset " + std::to_string(i);
  }
  if (s.size() % 4 != 0)
    return "length " + std::to_string(s.size()) + " is not a multiple of 4";
  return "";
}

std::string uri_problem(std::string_view s) {
  if (s.empty()) return "empty string";
  if (!is_alpha(static_cast<unsigned char>(s[0]))) return "does not start with a scheme (a letter then ':')";
  std::size_t i = 1;
  while (i < s.size() && s[i] != ':') {
    auto c = static_cast<unsigned char>(s[i]);
    if (!(is_alpha(c) || is_digit(c) || c == '+' || c == '-' || c == '.'))
      return "no scheme: " + describe_char(c) + " at offset " + std::to_string(i) + " before ':'";
    ++i;
  }
  if (i == s.size()) return "no ':' after the scheme";
  int hashes = 0;
  for (++i; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      if (i + 2 >= s.size() || !is_hex(static_cast<unsigned char>(s[i + 1])) ||
          !is_hex(static_cast<unsigned char>(s[i + 2])))
        return "'%' at offset " + std::to_string(i) + " is not followed by two hex digits";
      i += 2;
      continue;
    }
    if (!is_uri_char(c)) return describe_char(c) + " at offset " + std::to_string(i);
    if (c == '#' && ++hashes > 1) return "second '#' at offset " + std::to_string(i);
  }
  return "";
}

std::size_t code_point_count(std::string_view s) {
  std::size_t n = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    bool valid = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; valid && k < len; ++k)
      valid = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    i += valid ? len : 1;
    ++n;
  }
  return n;
}

}  // namespace mcpspec::util
