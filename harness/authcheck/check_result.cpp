#include "harness/authcheck/check_result.hpp"

namespace mcpspec::authcheck {

CheckResult::CheckResult(const scenario::RequirementCatalog& catalog, const std::string& version, std::string id,
                         std::string title, std::vector<std::string> requirements)
    : catalog_(catalog), version_(version) {
  r_.id = std::move(id);
  r_.title = std::move(title);
  r_.file = "(built-in authorization checks)";
  r_.area = r_.id.rfind("auth/as/", 0) == 0 ? "auth-as" : "auth-rs";
  r_.protocol = version;
  r_.role = "server";
  r_.transport = "http";
  r_.requirements = std::move(requirements);
  r_.level = catalog.strictest_level(version, r_.requirements);
  if (!r_.requirements.empty())
    if (auto q = catalog.find(version, r_.requirements.front())) r_.section = q->section;
  r_.tags = {"auth"};
}

Level CheckResult::level_of(const std::string& requirement) const { return catalog_.level_of(version_, requirement); }

void CheckResult::violation(const std::string& requirement, const std::string& message, const std::string& received) {
  finding(level_of(requirement), {requirement}, message, received);
}

void CheckResult::finding(Level level, const std::vector<std::string>& requirements, const std::string& message,
                          const std::string& received) {
  Finding f;
  f.requirements = requirements;
  f.level = level;
  f.message = message;
  f.received = received;
  r_.findings.push_back(std::move(f));
}

void CheckResult::note(const std::string& text) {
  r_.wire.push_back({ms_since(start_), WireEntry::Dir::Event, text});
}

void CheckResult::exchange(const ProbeRequest& req, const ProbeResponse& resp) {
  std::string out = req.method + " " + req.url;
  for (const auto& [k, v] : req.headers) out += "\n" + k + ": " + v;
  if (!req.body.empty()) out += "\n\n" + req.body;
  r_.wire.push_back({ms_since(start_), WireEntry::Dir::Out, out});
  std::string in = resp.reached ? "HTTP " + std::to_string(resp.status) : "no answer: " + resp.error;
  for (const auto& [k, v] : resp.headers)
    if (k == "www-authenticate" || k == "content-type" || k == "location" || k == "mcp-session-id") in += "\n" + k + ": " + v;
  if (!resp.body.empty()) in += "\n\n" + resp.body.substr(0, 2048);
  r_.wire.push_back({ms_since(start_), WireEntry::Dir::In, in});
}

void CheckResult::skip(const std::string& reason) {
  forced_ = Verdict::Skip;
  r_.reason = reason;
}

void CheckResult::error(const std::string& reason) {
  forced_ = Verdict::Error;
  r_.reason = reason;
}

ScenarioResult CheckResult::finish() {
  r_.verdict = forced_ ? *forced_ : verdict_from(r_.findings);
  r_.duration_ms = ms_since(start_);
  return r_;
}

}  // namespace mcpspec::authcheck
