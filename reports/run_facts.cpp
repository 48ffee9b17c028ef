#include "reports/run_facts.hpp"

#include "harness/util/text_hygiene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace mcpspec::reports {

std::string area_of(const ScenarioResult& r) {
  if (!r.area.empty()) return r.area;
  const auto first = r.id.find('/');
  if (first != std::string::npos) {
    const auto second = r.id.find('/', first + 1);
    if (second != std::string::npos && second > first + 1) return r.id.substr(first + 1, second - first - 1);
  }
  return "other";
}

std::vector<AreaCounts> per_area(const std::vector<ScenarioResult>& results, bool strict) {
  std::map<std::string, RunSummary> by_area;
  for (const auto& r : results) {
    auto& c = by_area[area_of(r)];
    c.strict = strict;
    count_verdict(c, r.verdict);
  }
  std::vector<AreaCounts> out;
  for (auto& [area, counts] : by_area) out.push_back({area, counts});
  return out;
}

std::string count_sentence(const RunSummary& s) {
  auto plural = [](int n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  // Skips get their own word on purpose: a skipped case was not shown to conform.
  std::string out = fmt::format("{} passed, {} failed, {}, {} skipped", s.pass, s.fail,
                                plural(s.warn, "warning", "warnings"), s.skip);
  if (s.xfail) out += ", " + plural(s.xfail, "expected failure", "expected failures");
  if (s.xpass) out += ", " + plural(s.xpass, "unexpected pass", "unexpected passes");
  if (s.error) out += ", " + plural(s.error, "error", "errors");
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-:=@+,") == std::string::npos;
  return plain ? s : shell_quote(s);
}

std::string rerun_command(const RunInfo& info, const ScenarioResult& r) {
  const std::string& t = info.target;
  const char* flag = "--server";
  if (r.role == "client") flag = "--client";
  else if (t.rfind("http://", 0) == 0 || t.rfind("https://", 0) == 0) flag = "--url";
  std::string cmd = fmt::format("mcpspec run {} {} --filter {}", flag, shell_quote(t), shell_quote(r.id));
  // The built-in authorization checks of a server (docs/authorization.md) run only with --auth.
  // A server started for them (mock-AS mode) is started over Streamable HTTP.
  if (r.role == "server" && (r.id.rfind("auth/rs/", 0) == 0 || r.id.rfind("auth/as/", 0) == 0))
    cmd += std::string(std::strcmp(flag, "--server") == 0 ? " --transport http" : "") + " --auth";
  if (!r.protocol.empty()) cmd += " --protocol " + shell_word(r.protocol);
  if (info.strict) cmd += " --strict";
  return cmd + " --wire";
}

std::vector<std::string> broken_requirements(const ScenarioResult& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings)
    for (const auto& id : f.requirements)
      if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  return out.empty() ? r.requirements : out;
}

std::string verdict_reason(const ScenarioResult& r) {
  constexpr std::size_t kReasonBytes = 300;
  const auto line = [](const std::string& text) { return util::first_line(util::clean_text(text, true), kReasonBytes); };
  const auto first_finding = [&] {
    if (r.findings.empty()) return line(r.reason);
    std::string s = line(r.findings.front().message);
    if (r.findings.size() > 1) s += fmt::format(" (+{} more)", r.findings.size() - 1);
    return s;
  };
  switch (r.verdict) {
    case Verdict::Pass: return "";
    case Verdict::Fail:
    case Verdict::Warn: return first_finding();
    case Verdict::Skip: return r.reason.empty() ? "no reason given" : line(r.reason);
    case Verdict::Error: return "harness error: " + (r.reason.empty() ? std::string("(no reason given)") : line(r.reason));
    case Verdict::XFail: return "expected failure (baseline): " + line(r.reason);
    case Verdict::XPass:
      return "passed, but the baseline expects it to fail" + (r.reason.empty() ? std::string() : " (" + line(r.reason) + ")") +
             ": remove the entry from the baseline";
  }
  return "";
}

std::string case_name(const ScenarioResult& r) {
  return r.protocol.empty() ? r.id : fmt::format("{} [{}]", r.id, r.protocol);
}

}  // namespace mcpspec::reports
