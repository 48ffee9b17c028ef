#include "harness/proxy/replay_values.hpp"

#include "harness/util/json_text.hpp"

#include <algorithm>
#include <cctype>

namespace mcpspec::proxy {

using nlohmann::json;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool all_of(const std::string& s, std::size_t from, std::size_t to, int (*pred)(int)) {
  for (std::size_t i = from; i < to && i < s.size(); ++i)
    if (!pred(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

bool is_uuid(const std::string& s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (s[i] == '-')) return false;
    if (!dash && !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

// "2026-11-27T10:21:08..." or "2026-11-27 10:21...": a date and a time of day.
bool is_date_time(const std::string& s) {
  return s.size() >= 16 && all_of(s, 0, 4, ::isdigit) && s[4] == '-' && all_of(s, 5, 7, ::isdigit) && s[7] == '-' &&
         all_of(s, 8, 10, ::isdigit) && (s[10] == 'T' || s[10] == ' ') && all_of(s, 11, 13, ::isdigit) && s[13] == ':';
}

bool is_long_hex(const std::string& s) { return s.size() >= 16 && all_of(s, 0, s.size(), ::isxdigit); }

// Generated identifiers and tokens: no spaces, letters and digits mixed, long enough not to be a
// word or a version ("2025-06-18" is ten characters), and not a URI (a URI names a thing the
// recorded answer meant; it stays exact).
bool is_token_like(const std::string& s) {
  if (s.size() < 12 || s.find("://") != std::string::npos) return false;
  bool digit = false, alpha = false;
  for (unsigned char c : s) {
    if (std::isdigit(c)) digit = true;
    else if (std::isalpha(c)) alpha = true;
    else if (c != '-' && c != '_' && c != '.' && c != ':' && c != '=' && c != '+' && c != '/') return false;
  }
  return digit && alpha;
}

// Members whose value is an identifier chosen at run time, whatever it looks like.
bool is_id_member(const std::string& member) {
  static const std::set<std::string> names = {"nextcursor", "cursor", "progresstoken", "requestid", "sessionid",
                                              "taskid", "subscriptionid", "requeststate"};
  return names.count(lower(member)) > 0;
}

const char* type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::string: return "string";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return "number";
    case json::value_t::boolean: return "boolean";
    case json::value_t::null: return "null";
    case json::value_t::array: return "array";
    default: return "object";
  }
}

// "${" in a literal string would read as a substitution.
json escape_string(const json& v) {
  if (!v.is_string()) return v;
  const auto& s = v.get_ref<const std::string&>();
  if (s.find("${") == std::string::npos) return v;
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '{') out += '$';
    out += s[i];
  }
  return out;
}

bool all_keys_operators(const json& o) {
  if (!o.is_object() || o.empty()) return false;
  for (const auto& [k, v] : o.items())
    if (k.empty() || k[0] != '$') return false;
  return true;
}

void collect_leaves(const json& v, std::set<std::string>& out) {
  if (v.is_object()) {
    for (const auto& [k, x] : v.items()) collect_leaves(x, out);
  } else if (v.is_array()) {
    for (const auto& x : v) collect_leaves(x, out);
  } else if (v.is_string() || v.is_number()) {
    out.insert(compact(v));
  }
}

}  // namespace

bool is_time_member(const std::string& member) {
  const std::string m = lower(member);
  for (const char* word : {"time", "date", "elapsed", "duration", "uptime", "latency"})
    if (m.find(word) != std::string::npos) return true;
  // camelCase and snake_case suffixes: createdAt, updated_at, timeoutMs, took_ms.
  return ends_with(member, "At") || ends_with(m, "_at") || ends_with(member, "Ms") || ends_with(m, "_ms");
}

bool is_volatile_value(const std::string& member, const json& value) {
  if (is_id_member(member) && (value.is_string() || value.is_number())) return true;
  if (value.is_number()) return is_time_member(member);
  if (!value.is_string()) return false;
  const auto& s = value.get_ref<const std::string&>();
  return is_uuid(s) || is_date_time(s) || is_long_hex(s) || is_token_like(s) || is_time_member(member);
}

void ReplayValues::note_sent(std::size_t position, const json& message) {
  std::set<std::string> leaves;
  collect_leaves(message, leaves);
  for (const auto& l : leaves) sent_at_[l].insert(position);
}

bool ReplayValues::sent_after(const std::string& key, std::size_t position) const {
  auto it = sent_at_.find(key);
  return it != sent_at_.end() && it->second.upper_bound(position) != it->second.end();
}

bool ReplayValues::sent_before(const std::string& key, std::size_t position) const {
  auto it = sent_at_.find(key);
  return it != sent_at_.end() && !it->second.empty() && *it->second.begin() < position;
}

std::string ReplayValues::capture_name(const std::string& member) {
  std::string base;
  for (unsigned char c : member)
    if (std::isalnum(c) || c == '_') base += static_cast<char>(c);
  if (base.empty()) base = "value";
  return base + "_" + std::to_string(++name_count_[base]);
}

json ReplayValues::matcher(std::size_t position, const json& recorded, const std::string& member) {
  if (recorded.is_object()) {
    json out = json::object();
    for (const auto& [k, v] : recorded.items()) {
      if (k == "_meta") {
        // Metadata is the implementation's business, except a progress token: the other side
        // sends it back in its progress notifications.
        if (v.is_object() && v.contains("progressToken"))
          out[k] = {{"progressToken", matcher(position, v["progressToken"], "progressToken")}};
        continue;
      }
      out[k] = matcher(position, v, k);
    }
    // An object whose keys all start with '$' would be read as matcher operators.
    if (all_keys_operators(out)) return {{"$eq", recorded}};
    return out;
  }
  if (recorded.is_array()) {
    json out = json::array();
    for (const auto& v : recorded) out.push_back(matcher(position, v, member));
    return out;
  }
  if (!is_volatile_value(member, recorded)) return escape_string(recorded);
  const std::string key = compact(recorded);
  // A value the replayed side had already sent is an echo of its own: it is sent again as
  // recorded, so the target must echo the same value.
  if (sent_before(key, position)) return escape_string(recorded);
  if (sent_after(key, position) && (recorded.is_string() || is_id_member(member))) {
    auto it = by_value_.find(key);
    if (it == by_value_.end()) it = by_value_.emplace(key, capture_name(member)).first;
    return {{"$capture", it->second}};
  }
  return {{"$type", type_name(recorded)}};
}

json ReplayValues::message(const json& recorded, const std::string& member) const {
  if (recorded.is_object()) {
    json out = json::object();
    for (const auto& [k, v] : recorded.items()) out[k] = message(v, k);
    return out;
  }
  if (recorded.is_array()) {
    json out = json::array();
    for (const auto& v : recorded) out.push_back(message(v, member));
    return out;
  }
  if (recorded.is_string() || (recorded.is_number() && is_id_member(member))) {
    auto it = by_value_.find(compact(recorded));
    if (it != by_value_.end()) return "${" + it->second + "}";
  }
  return escape_string(recorded);
}

}  // namespace mcpspec::proxy
