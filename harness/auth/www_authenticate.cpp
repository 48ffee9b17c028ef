#include "harness/auth/www_authenticate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace mcpspec::auth {

namespace {

// tchar (RFC 9110 §5.6.2)
bool tchar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}
bool t68char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-._~+/").find(c) != std::string_view::npos;
}
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

class Parser {
 public:
  explicit Parser(const std::string& v) : v_(v) {}

  ChallengeParse run() {
    ChallengeParse out;
    skip_list_separators();
    while (i_ < v_.size()) {
      Challenge c;
      c.scheme = token();
      if (c.scheme.empty()) return fail(out, "expected an auth-scheme");
      std::size_t after_scheme = i_;
      skip_ws();
      if (i_ > after_scheme && i_ < v_.size() && v_[i_] != ',') {
        if (param_ahead()) {
          if (!params(c, out)) return out;
        } else {
          std::string t68;
          while (i_ < v_.size() && t68char(v_[i_])) t68 += v_[i_++];
          while (i_ < v_.size() && v_[i_] == '=') t68 += v_[i_++];
          if (t68.empty()) return fail(out, "expected a token68 or auth-param after the scheme");
          c.token68 = t68;
          skip_ws();
        }
      }
      out.challenges.push_back(std::move(c));
      if (i_ < v_.size() && v_[i_] != ',') return fail(out, "expected ',' between challenges");
      skip_list_separators();
    }
    return out;
  }

 private:
  ChallengeParse& fail(ChallengeParse& out, const std::string& what) {
    out.error = fmt::format("{} at offset {}", what, i_);
    return out;
  }
  void skip_ws() {
    while (i_ < v_.size() && (v_[i_] == ' ' || v_[i_] == '\t')) ++i_;
  }
  void skip_list_separators() {
    while (i_ < v_.size() && (v_[i_] == ' ' || v_[i_] == '\t' || v_[i_] == ',')) ++i_;
  }
  std::string token() {
    std::string t;
    while (i_ < v_.size() && tchar(v_[i_])) t += v_[i_++];
    return t;
  }
  // At `token BWS "=" BWS (token | quoted-string)`: an auth-param, not a token68 ending in '='.
  bool param_ahead() const {
    std::size_t j = i_;
    while (j < v_.size() && tchar(v_[j])) ++j;
    if (j == i_) return false;
    while (j < v_.size() && (v_[j] == ' ' || v_[j] == '\t')) ++j;
    if (j >= v_.size() || v_[j] != '=') return false;
    ++j;
    while (j < v_.size() && (v_[j] == ' ' || v_[j] == '\t')) ++j;
    return j < v_.size() && (v_[j] == '"' || tchar(v_[j]));
  }
  bool params(Challenge& c, ChallengeParse& out) {
    while (true) {
      std::string name = lower(token());
      skip_ws();
      ++i_;  // '=' (param_ahead saw it)
      skip_ws();
      std::string value;
      if (i_ < v_.size() && v_[i_] == '"') {
        ++i_;
        bool closed = false;
        while (i_ < v_.size()) {
          char ch = v_[i_++];
          if (ch == '\\' && i_ < v_.size()) value += v_[i_++];
          else if (ch == '"') {
            closed = true;
            break;
          } else value += ch;
        }
        if (!closed) {
          fail(out, "unterminated quoted-string for \"" + name + "\"");
          return false;
        }
      } else {
        value = token();
      }
      if (c.params.count(name)) {
        fail(out, "auth-param \"" + name + "\" repeated");
        return false;
      }
      c.params[name] = value;
      skip_ws();
      if (i_ >= v_.size() || v_[i_] != ',') return true;
      // After a comma: another param of this challenge, or the next challenge.
      std::size_t comma = i_;
      skip_list_separators();
      if (!param_ahead()) {
        i_ = comma;
        return true;
      }
    }
  }

  const std::string& v_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<std::string> Challenge::param(const std::string& name) const {
  auto it = params.find(lower(name));
  if (it == params.end()) return std::nullopt;
  return it->second;
}

ChallengeParse parse_www_authenticate(const std::string& value) { return Parser(value).run(); }

const Challenge* find_challenge(const std::vector<Challenge>& all, const std::string& scheme) {
  for (const auto& c : all)
    if (lower(c.scheme) == lower(scheme)) return &c;
  return nullptr;
}

std::string write_challenge(const std::string& scheme, const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out = scheme;
  bool first = true;
  for (const auto& [name, value] : params) {
    out += first ? " " : ", ";
    first = false;
    out += name + "=\"";
    for (char ch : value) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
    out += '"';
  }
  return out;
}

}  // namespace mcpspec::auth
