#include "harness/scenario/baseline.hpp"

#include "reports/report_text.hpp"

#include <fmt/format.h>

#include <cctype>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fnmatch.h>

namespace mcpspec {

using nlohmann::json;

namespace {

// A baseline is a short hand-edited list; anything this big is the wrong file.
constexpr std::size_t kMaxBaselineBytes = 16u << 20;

[[noreturn]] void fail(const std::string& source, const std::string& pointer, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}: {}", source, pointer.empty() ? "top level" : pointer, what));
}

std::string type_of(const json& v) { return v.type_name(); }

bool has_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

bool glob_match(const std::string& pattern, const std::string& text) {
  // No FNM_PATHNAME: "mcp/tools/*" also covers deeper ids, which is what a baseline author means.
  return ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// "YYYY-MM-DD" by shape (the versions themselves change; the shape does not). Hand-written
// rather than std::regex: GCC 12 warns inside <regex> under sanitizer builds with -Werror.
bool looks_like_version(const std::string& s) {
  if (s.size() != 10) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 4 || i == 7;
    if (dash ? s[i] != '-' : !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

std::string entry_text(const BaselineEntry& e) {
  return fmt::format("{} [{}]", e.id, e.protocol.empty() ? "any protocol" : e.protocol);
}

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

// One readable line from a finding message or error text.
std::string short_reason(const std::string& s) {
  return reports::first_line(reports::clean_text(s, true), 200);
}

}  // namespace

Baseline Baseline::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "", "cannot read the baseline file (missing or not readable)");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) fail(path, "", "read error");
  const std::string text = buf.str();
  if (text.size() > kMaxBaselineBytes) fail(path, "", fmt::format("file is larger than {} bytes", kMaxBaselineBytes));
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number beyond a double
    // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep its line and column.
    std::string what = e.what();
    if (const auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
      what = what.substr(close + 2);
    fail(path, "", "not valid JSON: " + what);
  }
  return from_json(doc, path);
}

Baseline Baseline::from_json(const json& doc, const std::string& source) {
  if (!doc.is_object()) fail(source, "", "expected a JSON object, got " + type_of(doc));
  for (const auto& [key, value] : doc.items()) {
    (void)value;
    if (key != "format" && key != "version" && key != "expected_failures" && key != "comment")
      fail(source, "/" + key, "unknown key (allowed: format, version, expected_failures, comment)");
  }
  if (!doc.contains("format")) fail(source, "/format", "missing; expected \"mcpspec-baseline\"");
  if (!doc["format"].is_string() || doc["format"] != "mcpspec-baseline")
    fail(source, "/format", fmt::format("expected \"mcpspec-baseline\", got {}", doc["format"].dump()));
  if (!doc.contains("version")) fail(source, "/version", "missing; expected 1");
  if (!doc["version"].is_number_integer() || doc["version"] != 1)
    fail(source, "/version", fmt::format("unsupported version {} (this mcpspec reads version 1)", doc["version"].dump()));
  if (!doc.contains("expected_failures")) fail(source, "/expected_failures", "missing; expected an array");
  const json& list = doc["expected_failures"];
  if (!list.is_array()) fail(source, "/expected_failures", "expected an array, got " + type_of(list));

  Baseline b;
  std::map<std::pair<std::string, std::string>, std::size_t> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& e = list[i];
    const std::string at = fmt::format("/expected_failures/{}", i);
    if (!e.is_object()) fail(source, at, "expected an object with id and reason, got " + type_of(e));
    for (const auto& [key, value] : e.items()) {
      (void)value;
      // A misspelt "protocol" would silently widen the entry to every version: refuse it.
      if (key != "id" && key != "protocol" && key != "reason")
        fail(source, at + "/" + key, "unknown key (allowed: id, protocol, reason)");
    }
    BaselineEntry entry;
    auto text_field = [&](const char* key, bool required, std::string& out) {
      if (!e.contains(key)) {
        if (required) fail(source, at + "/" + key, "missing; expected a non-empty string");
        return;
      }
      const json& v = e[key];
      if (!v.is_string()) fail(source, at + "/" + key, "expected a non-empty string, got " + type_of(v));
      out = v.get<std::string>();
      if (out.empty()) fail(source, at + "/" + key, "must not be empty");
    };
    text_field("id", true, entry.id);
    text_field("protocol", false, entry.protocol);
    text_field("reason", true, entry.reason);
    if (!entry.protocol.empty() && !has_glob(entry.protocol) && !looks_like_version(entry.protocol))
      fail(source, at + "/protocol",
           fmt::format("\"{}\" is not a protocol version like 2025-11-25 (or a glob such as 2025-*)", entry.protocol));
    const auto key = std::make_pair(entry.id, entry.protocol);
    if (auto it = seen.find(key); it != seen.end())
      fail(source, at, fmt::format("duplicate of /expected_failures/{} ({})", it->second, entry_text(entry)));
    seen.emplace(key, i);
    b.entries_.push_back(std::move(entry));
  }
  b.used_ = std::make_unique<std::atomic<bool>[]>(b.entries_.size());
  return b;
}

const BaselineEntry* Baseline::match(const std::string& id, const std::string& protocol) const {
  // Specificity rank: 0 exact id + protocol ... 3 glob id + any protocol. Lower wins.
  const BaselineEntry* best = nullptr;
  std::size_t best_index = 0;
  int best_rank = 4;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const auto& e = entries_[i];
    const bool exact_id = e.id == id;
    if (!exact_id && !glob_match(e.id, id)) continue;
    const bool any_protocol = e.protocol.empty();
    if (!any_protocol && e.protocol != protocol && !glob_match(e.protocol, protocol)) continue;
    const int rank = (exact_id ? 0 : 2) + (any_protocol ? 1 : 0);
    if (rank < best_rank) {
      best_rank = rank;
      best = &e;
      best_index = i;
    }
  }
  if (best) used_[best_index].store(true, std::memory_order_relaxed);
  return best;
}

std::vector<std::string> Baseline::stale() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!used_[i].load(std::memory_order_relaxed)) out.push_back(entry_text(entries_[i]));
  }
  return out;
}

Verdict apply_baseline(Verdict raw, bool strict, const BaselineEntry* entry) {
  if (!entry) return raw;
  switch (raw) {
    case Verdict::Fail:
    case Verdict::Error: return Verdict::XFail;
    case Verdict::Warn: return strict ? Verdict::XFail : Verdict::Warn;
    case Verdict::Pass: return Verdict::XPass;
    case Verdict::Skip:
    case Verdict::XFail:
    case Verdict::XPass: return raw;
  }
  return raw;
}

void apply_baseline(ScenarioResult& r, bool strict, const Baseline& baseline) {
  const BaselineEntry* entry = baseline.match(r.id, r.protocol);
  const Verdict v = apply_baseline(r.verdict, strict, entry);
  if (v == r.verdict) return;
  if (r.verdict == Verdict::Error && !r.reason.empty()) {
    r.reason = fmt::format("{} (harness error: {})", entry->reason, r.reason);
  } else {
    r.reason = entry->reason;
  }
  r.verdict = v;
}

json make_baseline(const std::vector<ScenarioResult>& results) { return make_baseline(results, today_utc()); }

json make_baseline(const std::vector<ScenarioResult>& results, const std::string& date) {
  std::map<std::pair<std::string, std::string>, std::string> entries;  // sorted, one per id+protocol
  for (const auto& r : results) {
    std::string reason;
    switch (r.verdict) {
      case Verdict::XFail:
        reason = r.reason.empty() ? std::string() : short_reason(r.reason);
        [[fallthrough]];
      case Verdict::Fail:
      case Verdict::Error:
      case Verdict::Warn: {
        if (reason.empty()) {
          std::string why = !r.findings.empty() ? r.findings.front().message : r.reason;
          if (why.empty()) why = std::string(verdict_label(r.verdict)) + " with no message";
          reason = fmt::format("recorded {}: {}", date, short_reason(why));
        }
        entries.emplace(std::make_pair(reports::valid_utf8(r.id), reports::valid_utf8(r.protocol)), reason);
        break;
      }
      case Verdict::Pass:
      case Verdict::Skip:
      case Verdict::XPass: break;
    }
  }
  json list = json::array();
  for (const auto& [key, reason] : entries) {
    json e = {{"id", key.first}};
    if (!key.second.empty()) e["protocol"] = key.second;
    e["reason"] = reason;
    list.push_back(std::move(e));
  }
  return {{"format", "mcpspec-baseline"}, {"version", 1}, {"expected_failures", std::move(list)}};
}

}  // namespace mcpspec
