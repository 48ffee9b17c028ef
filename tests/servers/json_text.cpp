#include "json_text.hpp"

namespace testserver {

int nesting_depth(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > limit) return deepest;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return deepest;
}

std::variant<json, ParseFailure> parse_message_text(std::string_view text) {
  if (int d = nesting_depth(text, kMaxNesting); d > kMaxNesting) {
    return ParseFailure{"JSON nested deeper than " + std::to_string(kMaxNesting) +
                        " levels is refused"};
  }
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // what() quotes the offending token, which can be as long as the line: keep it short.
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " tag: it means nothing to a client.
    if (auto tag_end = what.find("] "); what.starts_with("[json.exception") && tag_end != std::string::npos) {
      what.erase(0, tag_end + 2);
    }
    if (what.size() > 300) what = what.substr(0, 300) + "...";
    return ParseFailure{"invalid JSON at byte " + std::to_string(e.byte) + ": " + what};
  } catch (const std::exception& e) {
    return ParseFailure{std::string("invalid JSON: ") + e.what()};
  }
}

std::string to_line(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string to_pretty(const json& value) {
  return value.dump(2, ' ', false, json::error_handler_t::replace);
}

}  // namespace testserver
