#include "front_matter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace chant {

namespace {

std::string_view trim(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  std::size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

[[noreturn]] void fail(int line, const std::string& what) {
  throw FrontMatterError(fmt::format("line {}: {}", line, what));
}

std::string shorten(std::string_view s) {
  if (s.size() <= 40) return std::string(s);
  return std::string(s.substr(0, 37)) + "...";
}

bool is_key_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_key_char(char c) { return is_key_start(c) || c == '-' || c == '.'; }

// "key: rest" at column 0. `rest` is everything after the colon.
bool split_key_line(std::string_view line, std::string& key, std::string_view& rest) {
  if (line.empty() || !is_key_start(line[0])) return false;
  std::size_t i = 1;
  while (i < line.size() && is_key_char(line[i])) ++i;
  std::size_t key_end = i;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i >= line.size() || line[i] != ':') return false;
  if (i + 1 < line.size() && line[i + 1] != ' ' && line[i + 1] != '\t') return false;
  key.assign(line.substr(0, key_end));
  rest = line.substr(i + 1);
  return true;
}

bool is_blank_or_comment(std::string_view line) {
  std::string_view t = trim(line);
  return t.empty() || t[0] == '#';
}

bool is_continuation(std::string_view line) {
  if (line.empty()) return false;
  if (line[0] == ' ' || line[0] == '\t') return true;
  return line[0] == '-' && (line.size() == 1 || line[1] == ' ' || line[1] == '\t');
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads a double-quoted scalar starting at text[pos] == '"'. Returns the index after the
// closing quote.
std::size_t read_double_quoted(std::string_view text, std::size_t pos, int line, std::string& out) {
  std::size_t i = pos + 1;
  auto read_hex = [&](std::size_t digits) -> std::uint32_t {
    if (i + digits > text.size()) fail(line, "incomplete escape sequence in quoted value");
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < digits; ++k) {
      int h = hex_value(text[i + k]);
      if (h < 0) fail(line, "bad hexadecimal digit in escape sequence");
      v = v * 16 + static_cast<std::uint32_t>(h);
    }
    i += digits;
    return v;
  };
  while (i < text.size()) {
    char c = text[i++];
    if (c == '"') return i;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i >= text.size()) break;
    char e = text[i++];
    switch (e) {
      case '0': out += '\0'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 't': case '\t': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'v': out += '\v'; break;
      case 'f': out += '\f'; break;
      case 'r': out += '\r'; break;
      case 'e': out += '\x1b'; break;
      case ' ': out += ' '; break;
      case '"': out += '"'; break;
      case '/': out += '/'; break;
      case '\\': out += '\\'; break;
      case 'x': out += static_cast<char>(read_hex(2)); break;
      case 'u':
      case 'U': {
        std::uint32_t cp = read_hex(e == 'u' ? 4 : 8);
        // Accept JSON-style surrogate pairs as a courtesy to people pasting JSON strings.
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= text.size() && text[i] == '\\' &&
            text[i + 1] == 'u') {
          i += 2;
          std::uint32_t low = read_hex(4);
          if (low < 0xDC00 || low > 0xDFFF) fail(line, "invalid surrogate pair in escape sequence");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
          fail(line, "lone surrogate in escape sequence");
        }
        if (cp > 0x10FFFF) fail(line, "escape sequence beyond U+10FFFF");
        append_utf8(out, cp);
        break;
      }
      default: fail(line, fmt::format("unknown escape '\\{}' in quoted value", e));
    }
  }
  fail(line, "missing closing '\"'");
}

std::size_t read_single_quoted(std::string_view text, std::size_t pos, int line, std::string& out) {
  std::size_t i = pos + 1;
  while (i < text.size()) {
    char c = text[i++];
    if (c != '\'') {
      out += c;
      continue;
    }
    if (i < text.size() && text[i] == '\'') {
      out += '\'';
      ++i;
      continue;
    }
    return i;
  }
  fail(line, "missing closing \"'\"");
}

void expect_only_comment(std::string_view rest, int line) {
  std::string_view t = trim(rest);
  if (!t.empty() && t[0] != '#') {
    fail(line, fmt::format("unexpected text after the closing quote: '{}'", shorten(t)));
  }
}

// A plain scalar ends at a comment (" #"); the value itself keeps inner spaces.
std::string_view strip_plain_comment(std::string_view t) {
  for (std::size_t i = 1; i < t.size(); ++i) {
    if (t[i] == '#' && (t[i - 1] == ' ' || t[i - 1] == '\t')) return trim(t.substr(0, i));
  }
  return t;
}

bool is_null_word(std::string_view t) {
  return t == "~" || t == "null" || t == "Null" || t == "NULL";
}

}  // namespace

std::optional<std::string> parse_scalar_text(std::string_view text, int line) {
  std::string_view t = trim(text);
  if (t.empty()) return std::nullopt;
  std::string out;
  if (t[0] == '"') {
    std::size_t end = read_double_quoted(t, 0, line, out);
    expect_only_comment(t.substr(end), line);
    return out;
  }
  if (t[0] == '\'') {
    std::size_t end = read_single_quoted(t, 0, line, out);
    expect_only_comment(t.substr(end), line);
    return out;
  }
  if (t[0] == '#') return std::nullopt;
  t = strip_plain_comment(t);
  if (is_null_word(t)) return std::nullopt;
  return std::string(t);
}

std::vector<std::string> parse_flow_list_text(std::string_view text, int line) {
  std::string_view t = trim(text);
  if (t.empty() || t[0] != '[') fail(line, "expected a list starting with '['");
  std::vector<std::string> items;
  std::size_t i = 1;
  std::string pending;
  bool have_item = false;
  auto flush = [&] {
    std::string_view raw = trim(pending);
    if (!raw.empty()) {
      if (auto v = parse_scalar_text(raw, line)) items.push_back(*v);
    }
    pending.clear();
    have_item = false;
  };
  while (i < t.size()) {
    char c = t[i];
    if (c == '"' || c == '\'') {
      std::string ignored;
      std::size_t end = c == '"' ? read_double_quoted(t, i, line, ignored)
                                 : read_single_quoted(t, i, line, ignored);
      pending.append(t.substr(i, end - i));
      have_item = true;
      i = end;
      continue;
    }
    if (c == ',') {
      flush();
      ++i;
      continue;
    }
    if (c == ']') {
      flush();
      std::string_view rest = trim(t.substr(i + 1));
      if (!rest.empty() && rest[0] != '#') {
        fail(line, fmt::format("unexpected text after ']': '{}'", shorten(rest)));
      }
      return items;
    }
    if (c == '[' || c == '{') fail(line, "nested lists and maps are not supported here");
    pending += c;
    have_item = true;
    ++i;
  }
  (void)have_item;
  fail(line, "missing closing ']'");
}

FrontMatter FrontMatter::parse(const std::vector<std::string>& lines, int first_line) {
  FrontMatter fm;
  int current = -1;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& text = lines[i];
    int line = first_line + static_cast<int>(i);
    if (is_blank_or_comment(text) && !(current >= 0 && is_continuation(text))) {
      if (current >= 0) {
        fm.entries_[static_cast<std::size_t>(current)].lines.push_back(text);
      } else {
        fm.entries_.push_back(Entry{"", {text}, line});
      }
      continue;
    }
    if (is_continuation(text)) {
      if (current < 0) fail(line, "indented line does not belong to any key");
      fm.entries_[static_cast<std::size_t>(current)].lines.push_back(text);
      continue;
    }
    std::string key;
    std::string_view rest;
    if (!split_key_line(text, key, rest)) {
      fail(line, fmt::format("expected 'key: value', got '{}'", shorten(text)));
    }
    if (const Entry* prior = fm.find(key)) {
      fail(line, fmt::format("duplicate key '{}' (first set on line {})", key, prior->line));
    }
    fm.entries_.push_back(Entry{key, {text}, line});
    current = static_cast<int>(fm.entries_.size()) - 1;
  }
  return fm;
}

std::vector<std::string> FrontMatter::render() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.insert(out.end(), e.lines.begin(), e.lines.end());
  return out;
}

const FrontMatter::Entry* FrontMatter::find(std::string_view key) const {
  for (const auto& e : entries_) {
    if (!e.key.empty() && e.key == key) return &e;
  }
  return nullptr;
}

bool FrontMatter::has(std::string_view key) const { return find(key) != nullptr; }

int FrontMatter::line_of(std::string_view key) const {
  const Entry* e = find(key);
  return e ? e->line : 0;
}

std::vector<std::string> FrontMatter::keys() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) {
    if (!e.key.empty()) out.push_back(e.key);
  }
  return out;
}

namespace {

struct Interpreted {
  enum class Kind { Null, Scalar, List, Other } kind = Kind::Null;
  std::string scalar;
  std::vector<std::string> list;
  std::string why;  // for Other
};

Interpreted interpret(const std::string& first, const std::vector<std::string>& more, int line) {
  Interpreted v;
  std::string key;
  std::string_view rest;
  split_key_line(first, key, rest);
  std::string_view inline_value = trim(rest);
  std::vector<std::pair<std::string_view, int>> body;
  for (std::size_t i = 0; i < more.size(); ++i) {
    if (!is_blank_or_comment(more[i])) body.emplace_back(more[i], line + 1 + static_cast<int>(i));
  }
  if (!inline_value.empty() && inline_value[0] != '#') {
    if (!body.empty()) {
      v.kind = Interpreted::Kind::Other;
      v.why = "continues on the following indented lines, which chant does not read";
      return v;
    }
    char c = inline_value[0];
    if (c == '[') {
      v.kind = Interpreted::Kind::List;
      v.list = parse_flow_list_text(inline_value, line);
      return v;
    }
    if (c == '{' || c == '|' || c == '>' || c == '&' || c == '*' || c == '!') {
      v.kind = Interpreted::Kind::Other;
      v.why = "uses YAML syntax chant does not read (maps, block scalars, anchors or tags)";
      return v;
    }
    if (auto s = parse_scalar_text(inline_value, line)) {
      v.kind = Interpreted::Kind::Scalar;
      v.scalar = *s;
    }
    return v;
  }
  if (body.empty()) return v;  // null
  for (auto [text, item_line] : body) {
    std::string_view t = trim(text);
    if (t.size() >= 1 && t[0] == '-' && (t.size() == 1 || t[1] == ' ' || t[1] == '\t')) {
      if (auto s = parse_scalar_text(t.substr(1), item_line)) v.list.push_back(*s);
      continue;
    }
    v.kind = Interpreted::Kind::Other;
    v.why = "is a nested structure, not a value or a list";
    return v;
  }
  v.kind = Interpreted::Kind::List;
  return v;
}

}  // namespace

std::optional<std::string> FrontMatter::scalar(std::string_view key) const {
  const Entry* e = find(key);
  if (!e) return std::nullopt;
  std::vector<std::string> more(e->lines.begin() + 1, e->lines.end());
  Interpreted v = interpret(e->lines.front(), more, e->line);
  switch (v.kind) {
    case Interpreted::Kind::Null: return std::nullopt;
    case Interpreted::Kind::Scalar: return v.scalar;
    case Interpreted::Kind::List: fail(e->line, fmt::format("'{}' must be a single value, not a list", key));
    case Interpreted::Kind::Other: break;
  }
  fail(e->line, fmt::format("value of '{}' {}", key, v.why));
}

std::optional<std::vector<std::string>> FrontMatter::list(std::string_view key) const {
  const Entry* e = find(key);
  if (!e) return std::nullopt;
  std::vector<std::string> more(e->lines.begin() + 1, e->lines.end());
  Interpreted v = interpret(e->lines.front(), more, e->line);
  switch (v.kind) {
    case Interpreted::Kind::Null: return std::vector<std::string>{};
    case Interpreted::Kind::Scalar:
      if (v.scalar.empty()) return std::vector<std::string>{};
      return std::vector<std::string>{v.scalar};
    case Interpreted::Kind::List: return v.list;
    case Interpreted::Kind::Other: break;
  }
  fail(e->line, fmt::format("value of '{}' {}", key, v.why));
}

void FrontMatter::replace_value(std::string_view key, const std::string& rendered_line) {
  for (auto& e : entries_) {
    if (e.key != key) continue;
    // Comments and blank lines trailing the old value belong to what follows: keep them.
    std::size_t keep_from = e.lines.size();
    while (keep_from > 1 && is_blank_or_comment(e.lines[keep_from - 1]) &&
           !is_continuation(e.lines[keep_from - 1])) {
      --keep_from;
    }
    std::vector<std::string> lines{rendered_line};
    lines.insert(lines.end(), e.lines.begin() + static_cast<std::ptrdiff_t>(keep_from), e.lines.end());
    e.lines = std::move(lines);
    return;
  }
  entries_.push_back(Entry{std::string(key), {rendered_line}, 0});
}

void FrontMatter::set_scalar(std::string_view key, const std::string& value) {
  replace_value(key, fmt::format("{}: {}", key, render_scalar(value)));
}

void FrontMatter::set_list(std::string_view key, const std::vector<std::string>& items) {
  replace_value(key, fmt::format("{}: {}", key, render_flow_list(items)));
}

void FrontMatter::erase(std::string_view key) {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                [&](const Entry& e) { return !e.key.empty() && e.key == key; }),
                 entries_.end());
}

namespace {

bool needs_quotes(const std::string& v) {
  if (v.empty()) return true;
  if (v.front() == ' ' || v.front() == '\t' || v.back() == ' ' || v.back() == '\t') return true;
  static const std::string_view indicators = "-?:,[]{}#&*!|>'\"%@`";
  if (indicators.find(v.front()) != std::string_view::npos) return true;
  if (v.back() == ':') return true;
  if (v.find(": ") != std::string::npos || v.find(" #") != std::string::npos) return true;
  for (char c : v) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
    // Flow-list separators are quoted everywhere so one rule serves scalars and list items.
    if (c == ',' || c == '[' || c == ']' || c == '{' || c == '}') return true;
  }
  std::string lower;
  for (char c : v) lower += static_cast<char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
  // Words other YAML readers would turn into null or booleans.
  static const char* reserved[] = {"null", "~", "true", "false", "yes", "no", "on", "off"};
  for (const char* r : reserved) {
    if (lower == r) return true;
  }
  return false;
}

}  // namespace

std::string render_scalar(const std::string& value) {
  if (!needs_quotes(value)) return value;
  std::string out = "\"";
  for (char c : value) {
    auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += fmt::format("\\x{:02x}", u);
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string render_flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += render_scalar(items[i]);
  }
  out += ']';
  return out;
}

}  // namespace chant
