#include "harness/results/baseline.hpp"

#include "harness/util/text_hygiene.hpp"

#include <fmt/format.h>

#include <algorithm>
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
  return fmt::format("{}{} [{}]", e.id, e.requirement.empty() ? "" : "#" + e.requirement,
                     e.protocol.empty() ? "any protocol" : e.protocol);
}

// 0 exact id + protocol ... 3 glob id + any protocol (lower is more specific); -1 no match.
int match_rank(const BaselineEntry& e, const std::string& id, const std::string& protocol) {
  const bool exact_id = e.id == id;
  if (!exact_id && !glob_match(e.id, id)) return -1;
  const bool any_protocol = e.protocol.empty();
  if (!any_protocol && e.protocol != protocol && !glob_match(e.protocol, protocol)) return -1;
  return (exact_id ? 0 : 2) + (any_protocol ? 1 : 0);
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
  return util::first_line(util::clean_text(s, true), 200);
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
    if (const auto hash = entry.id.find('#'); hash != std::string::npos) {
      entry.requirement = entry.id.substr(hash + 1);
      entry.id = entry.id.substr(0, hash);
      if (entry.id.empty() || entry.requirement.empty() || entry.requirement.find('#') != std::string::npos ||
          has_glob(entry.requirement))
        fail(source, at + "/id",
             "\"" + e["id"].get<std::string>() + "\": expected SCENARIO#REQ-ID, one exact requirement id after the '#'");
    }
    text_field("protocol", false, entry.protocol);
    text_field("reason", true, entry.reason);
    if (!entry.protocol.empty() && !has_glob(entry.protocol) && !looks_like_version(entry.protocol))
      fail(source, at + "/protocol",
           fmt::format("\"{}\" is not a protocol version like 2025-11-25 (or a glob such as 2025-*)", entry.protocol));
    const auto key = std::make_pair(entry.id + "#" + entry.requirement, entry.protocol);
    if (auto it = seen.find(key); it != seen.end())
      fail(source, at, fmt::format("duplicate of /expected_failures/{} ({})", it->second, entry_text(entry)));
    seen.emplace(key, i);
    b.entries_.push_back(std::move(entry));
  }
  b.used_ = std::make_unique<std::atomic<bool>[]>(b.entries_.size());
  return b;
}

const BaselineEntry* Baseline::match(const std::string& id, const std::string& protocol) const {
  const BaselineEntry* best = nullptr;
  std::size_t best_index = 0;
  int best_rank = 4;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!entries_[i].requirement.empty()) continue;
    const int rank = match_rank(entries_[i], id, protocol);
    if (rank >= 0 && rank < best_rank) {
      best_rank = rank;
      best = &entries_[i];
      best_index = i;
    }
  }
  if (best) used_[best_index].store(true, std::memory_order_relaxed);
  return best;
}

std::vector<const BaselineEntry*> Baseline::match_requirements(const std::string& id,
                                                               const std::string& protocol) const {
  std::map<std::string, std::pair<int, std::size_t>> best;  // requirement -> (rank, index)
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].requirement.empty()) continue;
    const int rank = match_rank(entries_[i], id, protocol);
    if (rank < 0) continue;
    auto it = best.find(entries_[i].requirement);
    if (it == best.end() || rank < it->second.first) best[entries_[i].requirement] = {rank, i};
  }
  std::vector<const BaselineEntry*> out;
  for (const auto& [req, pick] : best) {
    used_[pick.second].store(true, std::memory_order_relaxed);
    out.push_back(&entries_[pick.second]);
  }
  return out;
}

std::vector<std::string> Baseline::stale(const std::vector<std::string>& protocols_run) const {
  auto ran = [&protocols_run](const BaselineEntry& e) {
    if (e.protocol.empty() || protocols_run.empty()) return true;
    return std::any_of(protocols_run.begin(), protocols_run.end(),
                       [&e](const std::string& v) { return e.protocol == v || glob_match(e.protocol, v); });
  };
  std::vector<std::string> out;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!used_[i].load(std::memory_order_relaxed) && ran(entries_[i])) out.push_back(entry_text(entries_[i]));
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
  if (const BaselineEntry* entry = baseline.match(r.id, r.protocol)) {
    const Verdict v = apply_baseline(r.verdict, strict, entry);
    if (v == r.verdict) return;
    if (r.verdict == Verdict::Error && !r.reason.empty()) {
      r.reason = fmt::format("{} (harness error: {})", entry->reason, r.reason);
    } else {
      r.reason = entry->reason;
    }
    r.verdict = v;
    return;
  }
  const auto entries = baseline.match_requirements(r.id, r.protocol);
  if (entries.empty() || (r.verdict != Verdict::Pass && r.verdict != Verdict::Fail && r.verdict != Verdict::Warn))
    return;
  auto excuses = [&](const Finding& f) {
    for (const auto* e : entries)
      if (std::find(f.requirements.begin(), f.requirements.end(), e->requirement) != f.requirements.end()) return true;
    return false;
  };
  std::vector<Finding> rest;
  bool excused_must = false;
  for (const auto& f : r.findings) {
    if (!excuses(f)) rest.push_back(f);
    else if (f.level == Level::Must) excused_must = true;
  }
  const Verdict remaining = verdict_from(rest);
  std::string expected;
  for (const auto* e : entries) expected += (expected.empty() ? "" : "; ") + e->requirement + ": " + e->reason;
  if (remaining != Verdict::Pass) {
    // Something the baseline does not expect failed: that verdict stands, named as new.
    if (remaining != r.verdict || rest.size() != r.findings.size())
      r.reason = "not expected by the baseline (which expects " + expected + ")";
    r.verdict = remaining;
    return;
  }
  std::string fixed;
  for (const auto* e : entries) {
    bool seen = std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) {
      return std::find(f.requirements.begin(), f.requirements.end(), e->requirement) != f.requirements.end();
    });
    if (!seen) fixed += (fixed.empty() ? "" : ", ") + e->requirement;
  }
  if (!fixed.empty()) {
    r.verdict = Verdict::XPass;
    r.reason = "the baseline expects " + fixed + " to fail, and it passes (" + expected + ")";
    return;
  }
  if (!excused_must && !strict) return;  // only SHOULDs excused: a WARN does not fail the run anyway
  r.verdict = Verdict::XFail;
  r.reason = expected;
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
        entries.emplace(std::make_pair(util::valid_utf8(r.id), util::valid_utf8(r.protocol)), reason);
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
