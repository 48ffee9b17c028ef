#include "harness/scenario/step_support.hpp"

#include "harness/scenario/matcher.hpp"

#include <signal.h>

#include <algorithm>
#include <map>

extern char** environ;

namespace mcpspec::scenario {

using nlohmann::json;

void throw_cannot_check(const std::string& what, const MatchResult& m) { throw_cannot_check(what, m.undecided); }

void throw_cannot_check(const std::string& what, const std::vector<std::string>& reasons) {
  // One line: reports show a reason's first line only.
  std::string text = "cannot check " + what + ": ";
  for (std::size_t i = 0; i < reasons.size(); ++i) text += (i ? "; " : "") + reasons[i];
  throw CannotCheck(text);
}

std::optional<std::string> UncheckedMessages::note(const std::vector<std::string>& reasons) {
  if (reasons.empty()) return std::nullopt;
  constexpr std::size_t kKept = 3;
  for (const auto& r : reasons) {
    ++count_;
    if (reasons_.size() < kKept && std::find(reasons_.begin(), reasons_.end(), r) == reasons_.end())
      reasons_.push_back(r);
  }
  return "not checked against the schema: " + reasons.front();
}

void UncheckedMessages::raise_if_any(const std::string& whose) const {
  if (count_ == 0) return;
  std::vector<std::string> shown = reasons_;
  if (count_ > reasons_.size()) shown.push_back(std::to_string(count_ - reasons_.size()) + " more");
  throw_cannot_check(whose + " against the schema", shown);
}

MatchResult decided_match(const json& matcher, const json& value, const std::string& what) {
  auto m = match(matcher, value);
  if (!m.undecided.empty()) throw_cannot_check(what, m);
  return m;
}

std::string mismatch_text(const MatchResult& m) {
  std::string text;
  for (const auto& line : m.mismatches) text += line + "\n";
  return text;
}

bool filter_matches(const json& matcher, const json& value, const std::string& what) {
  return decided_match(matcher, value, what).ok;
}

std::optional<std::size_t> pick_expectation(const std::vector<json>& pending, const json& message) {
  std::optional<std::size_t> undecided;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    auto m = match(pending[i], message);
    if (m.ok) return i;
    if (!undecided && !m.undecided.empty()) undecided = i;
  }
  return undecided;
}

json environment_object() {
  json env = json::object();
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

int signal_number(const std::string& name) {
  static const std::map<std::string, int> m = {{"TERM", SIGTERM}, {"INT", SIGINT},   {"HUP", SIGHUP}, {"KILL", SIGKILL},
                                               {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"QUIT", SIGQUIT}};
  auto it = m.find(name);
  return it == m.end() ? SIGTERM : it->second;
}

void for_each_step(const json& steps, const std::function<void(const json&)>& visit) {
  if (!steps.is_array()) return;
  for (const auto& step : steps) {
    if (!step.is_object()) continue;
    visit(step);
    if (step.contains("steps")) for_each_step(step["steps"], visit);
  }
}

long long step_ms(const json& step, const char* key) {
  return step.contains(key) && step[key].is_number_integer() ? step[key].get<long long>() : 0;
}

bool selects_only_responses(const json& matcher) {
  if (!matcher.is_object()) return false;
  // Exactly {"$absent": true}, read in place: no document built per call, and no function-local
  // static (ThreadSanitizer cannot see the guard of one initialized in a layer it does not
  // instrument: tests/sanitize/tsan.sh).
  if (matcher.contains("method")) {
    const json& m = matcher["method"];
    return m.is_object() && m.size() == 1 && m.contains("$absent") && m["$absent"] == true;
  }
  return matcher.contains("result") || matcher.contains("error");
}

}  // namespace mcpspec::scenario
