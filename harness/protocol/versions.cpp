#include "harness/protocol/versions.hpp"

#include <regex>

namespace mcpspec::protocol {

const std::vector<std::string>& known_versions() {
  static const std::vector<std::string> v = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
  return v;
}

const std::string& latest_version() { return known_versions().back(); }

bool is_known_version(std::string_view v) {
  for (const auto& k : known_versions())
    if (k == v) return true;
  return false;
}

const std::vector<std::string>& modern_versions() {
  static const std::vector<std::string> v = {"2026-07-28"};
  return v;
}

bool is_modern_version(std::string_view v) {
  for (const auto& k : modern_versions())
    if (k == v) return true;
  return false;
}

const std::vector<std::string>& runnable_versions() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> all = known_versions();
    all.insert(all.end(), modern_versions().begin(), modern_versions().end());
    return all;
  }();
  return v;
}

bool is_runnable_version(std::string_view v) { return is_known_version(v) || is_modern_version(v); }

namespace {

bool is_date(const std::string& s) {
  static const std::regex date(R"(^\d{4}-\d{2}-\d{2}$)");
  return s.size() == 10 && std::regex_match(s, date);
}

std::string trim(std::string s) {
  auto b = s.find_first_not_of(' ');
  auto e = s.find_last_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

}  // namespace

VersionRange VersionRange::parse(const nlohmann::json& expr) {
  VersionRange r;
  std::vector<std::string> items;
  if (expr.is_string()) {
    items.push_back(expr.get<std::string>());
  } else if (expr.is_array() && !expr.empty()) {
    for (const auto& e : expr) {
      if (!e.is_string()) throw std::invalid_argument("version range list must hold strings");
      items.push_back(e.get<std::string>());
    }
  } else {
    throw std::invalid_argument("version range must be a string or a non-empty array of strings");
  }
  r.text_.clear();
  for (auto item : items) {
    item = trim(item);
    if (!r.text_.empty()) r.text_ += ", ";
    r.text_ += item;
    if (item == "all") {
      r.parts_.clear();
      r.text_ = "all";
      return r;
    }
    Part p;
    auto dots = item.find("..");
    if (dots != std::string::npos) {
      p.lo = trim(item.substr(0, dots));
      p.hi = trim(item.substr(dots + 2));
    } else if (item.rfind(">=", 0) == 0) {
      p.lo = trim(item.substr(2));
    } else if (item.rfind("<=", 0) == 0) {
      p.hi = trim(item.substr(2));
    } else if (item.rfind('>', 0) == 0) {
      p.lo = trim(item.substr(1));
      p.lo_open = true;
    } else if (item.rfind('<', 0) == 0) {
      p.hi = trim(item.substr(1));
      p.hi_open = true;
    } else {
      p.lo = p.hi = item;
    }
    for (const auto* bound : {&p.lo, &p.hi})
      if (!bound->empty() && !is_date(*bound))
        throw std::invalid_argument("\"" + item + "\" is not a version range (expected e.g. \">=2025-03-26\", "
                                    "\"2024-11-05..2025-06-18\" or \"all\")");
    if (p.lo.empty() && p.hi.empty()) throw std::invalid_argument("empty version range \"" + item + "\"");
    r.parts_.push_back(p);
  }
  return r;
}

bool VersionRange::contains(std::string_view version) const {
  if (parts_.empty()) return true;
  std::string v(version);
  for (const auto& p : parts_) {
    bool ok = true;
    if (!p.lo.empty()) ok = ok && (p.lo_open ? v > p.lo : v >= p.lo);
    if (!p.hi.empty()) ok = ok && (p.hi_open ? v < p.hi : v <= p.hi);
    if (ok) return true;
  }
  return false;
}

}  // namespace mcpspec::protocol
