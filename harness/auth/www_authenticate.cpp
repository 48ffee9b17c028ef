#include "harness/auth/www_authenticate.hpp"

#include <cctype>

namespace mcpspec::auth {

namespace {

// RFC 9110 §5.6.2 tchar.
bool is_tchar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}
// RFC 9110 §11.2 token68 characters (without the trailing '=' padding).
bool is_token68_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-._~+/").find(c) != std::string_view::npos;
}

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}
  bool done() const { return i_ >= s_.size(); }
  char peek(std::size_t ahead = 0) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
  std::size_t pos() const { return i_; }
  void seek(std::size_t p) { i_ = p; }
  void skip_ws() {
    while (!done() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  // Empty list elements are allowed (RFC 9110 §5.6.1): skips commas and whitespace.
  void skip_separators() {
    while (!done() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == ',')) ++i_;
  }
  std::string token() {
    std::size_t start = i_;
    while (!done() && is_tchar(s_[i_])) ++i_;
    return s_.substr(start, i_ - start);
  }
  // A quoted-string starting at the current '"'; false when it never closes.
  bool quoted(std::string& out) {
    ++i_;  // the opening quote
    while (!done()) {
      char c = s_[i_++];
      if (c == '"') return true;
      if (c == '\\') {
        if (done()) return false;
        c = s_[i_++];
      }
      out += c;
    }
    return false;
  }

 private:
  const std::string& s_;
  std::size_t i_ = 0;
};

std::string where(const Reader& r) { return " at byte " + std::to_string(r.pos()); }

}  // namespace

bool iequals_ascii(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::optional<std::string> Challenge::param(const std::string& name) const {
  for (const auto& [k, v] : params)
    if (iequals_ascii(k, name)) return v;
  return std::nullopt;
}

const Challenge* find_challenge(const ParsedChallenges& parsed, const std::string& scheme) {
  for (const auto& c : parsed.challenges)
    if (iequals_ascii(c.scheme, scheme)) return &c;
  return nullptr;
}

ParsedChallenges parse_www_authenticate(const std::string& text) {
  ParsedChallenges out;
  Reader r(text);
  r.skip_separators();
  while (!r.done()) {
    Challenge ch;
    ch.scheme = r.token();
    if (ch.scheme.empty()) {
      out.error = std::string("expected an auth-scheme") + where(r);
      return out;
    }
    bool spaced = r.peek() == ' ' || r.peek() == '\t';
    r.skip_ws();
    // token68: its characters, optional '=' padding, then the end of this challenge.
    if (spaced && is_token68_char(r.peek())) {
      std::size_t start = r.pos(), p = start;
      while (is_token68_char(r.peek(p - start))) ++p;
      std::size_t end = p;
      while (r.peek(end - start) == '=') ++end;
      r.seek(end);
      r.skip_ws();
      if (r.done() || r.peek() == ',') {
        ch.token68 = text.substr(start, end - start);
        out.challenges.push_back(std::move(ch));
        r.skip_separators();
        continue;
      }
      r.seek(start);
    }
    // auth-params until the next element is not "name = value", i.e. a new challenge's scheme.
    while (spaced && !r.done()) {
      std::size_t start = r.pos();
      std::string name = r.token();
      r.skip_ws();
      if (name.empty() || r.peek() != '=') {
        r.seek(start);
        break;
      }
      r.seek(r.pos() + 1);
      r.skip_ws();
      std::string value;
      if (r.peek() == '"') {
        if (!r.quoted(value)) {
          out.error = "unterminated quoted-string for parameter " + name + where(r);
          out.challenges.push_back(std::move(ch));
          return out;
        }
      } else {
        value = r.token();
        if (value.empty()) {
          out.error = "parameter " + name + " has no value" + where(r);
          out.challenges.push_back(std::move(ch));
          return out;
        }
      }
      ch.params.emplace_back(name, value);
      r.skip_ws();
      if (r.done()) break;
      if (r.peek() != ',') {
        out.error = std::string("expected ',' after parameter ") + name + where(r);
        out.challenges.push_back(std::move(ch));
        return out;
      }
      r.skip_separators();
    }
    out.challenges.push_back(std::move(ch));
    r.skip_separators();
  }
  return out;
}

}  // namespace mcpspec::auth
