#pragma once
// JSON Pointer (RFC 6901) tokens: every error we print names a place as a pointer, so the escaping
// of '~' and '/' in object keys lives here once.
#include <string>
#include <string_view>

namespace mcpspec {

inline std::string pointer_token(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// `parent` + "/" + the escaped key.
inline std::string pointer_child(const std::string& parent, std::string_view key) {
  return parent + "/" + pointer_token(key);
}

}  // namespace mcpspec
