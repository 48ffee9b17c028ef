#include "spec_id.hpp"

#include "tool_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace chant {

std::string printable(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, std::min<std::size_t>(text.size(), 80))) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out += c;
    }
  }
  if (text.size() > 80) out += "...";
  return out;
}

std::optional<std::string> id_problem(std::string_view id) {
  if (id.empty()) return "must not be empty";
  if (id.size() > kMaxIdLength) return fmt::format("longer than {} characters", kMaxIdLength);
  if (id.find('\0') != std::string_view::npos) return "must not contain NUL";
  if (id.front() == '/') return "must not be an absolute path";
  if (id.find('/') != std::string_view::npos) return "must not contain '/'";
  if (id.find('\\') != std::string_view::npos) return "must not contain '\\'";
  if (id.find("..") != std::string_view::npos) return "must not contain '..'";
  if (id.front() == '.') return "must not start with '.'";
  for (char c : id) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return "must not contain control characters";
    if (!(std::isalnum(u) || c == '-' || c == '_' || c == '.')) {
      return fmt::format("character '{}' is not allowed (use letters, digits, '-', '_', '.')",
                         printable(std::string_view(&c, 1)));
    }
  }
  return std::nullopt;
}

void require_safe_id(std::string_view id) {
  if (auto why = id_problem(id)) {
    throw ToolError(fmt::format("Invalid spec id '{}': {}", printable(id), *why));
  }
}

namespace {

// "2026-01-22-001-x7m" -> sequence 1 for date "2026-01-22"; -1 if the id is not of that day.
long sequence_on(std::string_view id, std::string_view date) {
  if (id.size() <= date.size() + 1 || id.substr(0, date.size()) != date || id[date.size()] != '-') {
    return -1;
  }
  std::size_t i = date.size() + 1;
  long seq = 0;
  std::size_t digits = 0;
  while (i < id.size() && std::isdigit(static_cast<unsigned char>(id[i])) && digits < 9) {
    seq = seq * 10 + (id[i] - '0');
    ++i;
    ++digits;
  }
  if (digits == 0) return -1;
  if (i < id.size() && id[i] != '-') return -1;
  return seq;
}

// Splits "<date>-<seq>-<rest>" for sorting; ids of other shapes sort by plain text.
struct IdKey {
  std::string date;
  long seq = -1;
  std::string rest;
};

IdKey key_of(const std::string& id) {
  IdKey k;
  bool dated = id.size() >= 11 && id[4] == '-' && id[7] == '-' && id[10] == '-';
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!dated || i >= id.size() || !std::isdigit(static_cast<unsigned char>(id[i]))) dated = false;
  }
  if (!dated) {
    k.rest = id;
    return k;
  }
  k.date = id.substr(0, 10);
  long seq = sequence_on(id, k.date);
  if (seq < 0) {
    k.date.clear();
    k.rest = id;
    return k;
  }
  k.seq = seq;
  std::size_t i = 11;
  while (i < id.size() && std::isdigit(static_cast<unsigned char>(id[i]))) ++i;
  k.rest = id.substr(i);
  return k;
}

}  // namespace

std::string generate_id(std::string_view date, const std::vector<std::string>& existing,
                        std::mt19937& random) {
  long highest = 0;
  for (const auto& id : existing) highest = std::max(highest, sequence_on(id, date));
  static constexpr std::string_view alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string suffix;
  for (int i = 0; i < 3; ++i) suffix += alphabet[pick(random)];
  return fmt::format("{}-{:03d}-{}", date, highest + 1, suffix);
}

bool id_less(const std::string& a, const std::string& b) {
  IdKey ka = key_of(a), kb = key_of(b);
  // Dated ids first (in date order), then anything hand-named.
  bool da = !ka.date.empty(), db = !kb.date.empty();
  if (da != db) return da;
  if (ka.date != kb.date) return ka.date < kb.date;
  if (ka.seq != kb.seq) return ka.seq < kb.seq;
  if (ka.rest != kb.rest) return ka.rest < kb.rest;
  return a < b;
}

IdMatch match_id(std::string_view query, const std::vector<std::string>& ids) {
  IdMatch m;
  if (std::find(ids.begin(), ids.end(), query) != ids.end()) {
    m.kind = IdMatch::Kind::Unique;
    m.id = std::string(query);
    return m;
  }
  auto decide = [&](auto&& pred) {
    std::vector<std::string> hits;
    for (const auto& id : ids) {
      if (pred(id)) hits.push_back(id);
    }
    if (hits.empty()) return false;
    std::sort(hits.begin(), hits.end(), id_less);
    if (hits.size() == 1) {
      m.kind = IdMatch::Kind::Unique;
      m.id = hits.front();
    } else {
      m.kind = IdMatch::Kind::Ambiguous;
      m.candidates = std::move(hits);
    }
    return true;
  };
  if (decide([&](const std::string& id) {
        return id.size() > query.size() && std::string_view(id).substr(id.size() - query.size()) == query;
      })) {
    return m;
  }
  decide([&](const std::string& id) { return id.find(query) != std::string::npos; });
  return m;
}

}  // namespace chant
