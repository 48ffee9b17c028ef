#include "stated_targets.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <vector>

#include "text_utils.hpp"

namespace clariad {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return c >= 'a' && c <= 'z'; }

// Lowercase tokens: words, numbers (with inner '.' or ','), and "%". Letters and digits are
// separate tokens, so "200ms" reads as "200" "ms".
std::vector<std::string> tokenize(std::string_view text) {
  const std::string lower = to_lower_ascii(text);
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < lower.size()) {
    const char c = lower[i];
    if (is_digit(c)) {
      std::size_t j = i;
      while (j < lower.size() &&
             (is_digit(lower[j]) || ((lower[j] == '.' || lower[j] == ',') && j + 1 < lower.size() && is_digit(lower[j + 1])))) {
        ++j;
      }
      tokens.push_back(lower.substr(i, j - i));
      i = j;
    } else if (is_letter(c)) {
      std::size_t j = i;
      while (j < lower.size() && is_letter(lower[j])) ++j;
      tokens.push_back(lower.substr(i, j - i));
      i = j;
    } else {
      if (c == '%') tokens.emplace_back("%");
      ++i;
    }
  }
  return tokens;
}

bool is_number(const std::string& token) { return !token.empty() && is_digit(token.front()); }

double value_of(const std::string& token) {
  std::string plain;
  for (char c : token) {
    if (c != ',') plain.push_back(c);
  }
  return std::strtod(plain.c_str(), nullptr);
}

bool near(const std::vector<std::string>& tokens, std::size_t at, std::size_t before, std::size_t after,
          const std::set<std::string, std::less<>>& words) {
  const std::size_t from = at > before ? at - before : 0;
  const std::size_t to = std::min(tokens.size(), at + after + 1);
  for (std::size_t i = from; i < to; ++i) {
    if (words.count(tokens[i])) return true;
  }
  return false;
}

}  // namespace

StatedTargets find_stated_targets(std::string_view text) {
  static const std::set<std::string, std::less<>> kMillis = {"ms", "millisecond", "milliseconds"};
  static const std::set<std::string, std::less<>> kSeconds = {"s", "sec", "secs", "second", "seconds"};
  static const std::set<std::string, std::less<>> kTiming = {
      "respond", "responds", "response", "responses", "latency", "load", "loads", "loaded", "within",
      "under", "p95", "p99", "render", "renders", "rendered", "return", "returns", "appear", "appears"};
  static const std::set<std::string, std::less<>> kUptime = {"uptime", "availability", "available", "sla", "slo"};
  static const std::set<std::string, std::less<>> kMultiplier = {"k", "thousand", "m", "million", "millions"};
  static const std::set<std::string, std::less<>> kQualifier = {"concurrent", "simultaneous", "active", "daily",
                                                                "monthly", "registered", "online", "parallel"};

  const std::vector<std::string> tokens = tokenize(text);
  StatedTargets found;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!is_number(tokens[i])) continue;
    const std::string& number = tokens[i];
    const std::string next = i + 1 < tokens.size() ? tokens[i + 1] : std::string();

    if (!found.response_time && kMillis.count(next)) {
      found.response_time = number + " ms";
    } else if (!found.response_time && kSeconds.count(next) && near(tokens, i, 6, 0, kTiming)) {
      found.response_time = number + " s";
    }

    if (!found.availability && next == "%") {
      const double v = value_of(number);
      if (v >= 90.0 && v <= 100.0 && near(tokens, i, 6, 4, kUptime)) found.availability = number + "%";
    }

    if (!found.users) {
      std::size_t j = i + 1;
      double scale = 1;
      std::string phrase = number;
      if (j < tokens.size() && kMultiplier.count(tokens[j])) {
        scale = (tokens[j] == "k" || tokens[j] == "thousand") ? 1e3 : 1e6;
        phrase += (tokens[j].size() == 1 ? "" : " ") + tokens[j];
        ++j;
      }
      for (int q = 0; q < 2 && j < tokens.size() && kQualifier.count(tokens[j]); ++q, ++j) phrase += " " + tokens[j];
      if (j < tokens.size() && (tokens[j] == "users" || tokens[j] == "user")) {
        found.users = phrase + " users";
        found.user_count = value_of(number) * scale;
      }
    }
  }
  return found;
}

}  // namespace clariad
