#include "harness/scenario/step_executor.hpp"

#include "harness/scenario/message_selector.hpp"
#include "harness/scenario/scenario_outcome.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/scenario/substitute.hpp"
#include "harness/util/json_text.hpp"

#include <fmt/format.h>
#include <signal.h>

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

// How often a collect with within_ms looks whether every request has been answered meanwhile.
constexpr int kCollectPollMs = 20;

Awaiting awaiting_for(const json& matcher) {
  return selects_only_responses(matcher) ? Awaiting::Answers : Awaiting::Anything;
}

}  // namespace

StepExecutor::StepExecutor(const Scenario& s, const RunConfig& cfg, ScenarioResult& r)
    : s_(s), cfg_(cfg), r_(r), scenario_deadline_(scenario_deadline(s, cfg)) {}

json StepExecutor::subst(const json& v) const {
  try {
    return substitute(v, vars_);
  } catch (const SubstitutionError& e) {
    throw ScenarioBug(e.what());
  }
}

int StepExecutor::step_wait_ms(const json& step) const {
  int ms = step.contains("within_ms") ? step["within_ms"].get<int>() : s_.timeout_ms.value_or(cfg_.timeout_ms);
  // A target that has not said anything yet may still be starting: start-up time is not
  // response time, so the first wait gets the (longer) start-up allowance.
  if (!conv_->heard_from_target()) ms = std::max(ms, cfg_.startup_timeout_ms);
  return ms;
}

Deadline StepExecutor::step_deadline(const json& step) const {
  return Deadline::after_ms(step_wait_ms(step)).earliest(scenario_deadline_);
}

std::string StepExecutor::waiting_summary() const {
  std::string out;
  int n = 0;
  for (const auto& m : conv_->inbox()) {
    if (n++ == 5) {
      out += "...\n";
      break;
    }
    out += compact(m.json).substr(0, 400) + "\n";
  }
  return out.empty() ? "(nothing unconsumed arrived)" : "unconsumed messages:\n" + out;
}

std::string StepExecutor::waited(const json& step) const {
  if (!conv_->ended_early().empty()) return "(" + conv_->ended_early() + ")";
  return fmt::format("within {} ms", step_wait_ms(step));
}

void StepExecutor::fail(const json& step, std::string message, std::string expected, std::string received,
                        std::string diff, std::vector<std::string> extra_reqs) {
  Finding f;
  f.requirements =
      step.contains("requirements") ? step["requirements"].get<std::vector<std::string>>() : s_.requirements;
  for (auto& e : extra_reqs)
    if (std::find(f.requirements.begin(), f.requirements.end(), e) == f.requirements.end())
      f.requirements.push_back(e);
  f.level = step.contains("level") ? parse_level(step["level"]) : s_.level;
  if (step.contains("note")) message += " (" + step["note"].get<std::string>() + ")";
  if (!current_label_.empty()) message = current_label_ + ": " + message;
  f.message = std::move(message);
  f.step = current_index_;
  f.expected = std::move(expected);
  f.received = std::move(received);
  f.diff = std::move(diff);
  conv_->add_finding(std::move(f));
  // Later steps build on this one (captures, state): going on would only report follow-on noise.
  // The wire log says so, so that a reader does not look for what the later steps saw.
  conv_->event(fmt::format("the scenario ends at this failure (step {}): the steps after it were not run",
                           current_index_));
  throw StopScenario{};
}

void StepExecutor::match_or_fail(const json& step, const json& matcher, const json& message, const std::string& what) {
  auto m = decided_match(matcher, message, what);
  if (!m.ok) fail(step, what + " does not match the expectation", pretty(matcher), pretty(message), mismatch_text(m));
  for (const auto& [name, value] : m.captured.items()) vars_[name] = value;
  if (!step.contains("capture")) return;
  for (const auto& [name, ptr] : step["capture"].items()) {
    json::json_pointer jp;
    try {
      jp = json::json_pointer(ptr.get<std::string>());
    } catch (const json::exception& e) {
      throw ScenarioBug("capture \"" + name + "\": bad JSON pointer " + ptr.dump() + ": " + e.what());
    }
    if (!message.contains(jp))
      fail(step, "capture \"" + name + "\": the message has nothing at " + ptr.get<std::string>(), "",
           compact(message));
    vars_[name] = message.at(jp);
  }
}

void StepExecutor::run_steps(const json& steps, int base_index, const std::string& label) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    // Steps inside a foreach report the index of the foreach step that runs them.
    int index = base_index >= 0 ? (label.empty() ? static_cast<int>(i) : base_index) : -1;
    run_step(steps[i], index, label.empty() ? "" : label + ", step " + std::to_string(i));
  }
}

// The value part of a step's "if" (both roles): {"check": VALUE, "matches": MATCHER} runs the step
// only when the value built from captures matches, e.g. follow up a tool call only when it was
// answered with a task handle.
bool StepExecutor::value_condition_holds(const json& cond) const {
  if (!cond.contains("check")) return true;
  return filter_matches(subst(cond["matches"]), subst(cond["check"]), "the value of the step's if");
}

void StepExecutor::run_step(const json& step, int index, const std::string& label) {
  current_index_ = index;
  current_label_ = label;
  if (step.contains("if") && !(condition_holds(step["if"]) && value_condition_holds(step["if"]))) {
    conv_->event(fmt::format("step {} skipped: its condition does not hold", index));
    return;
  }
  if (step.contains("label") && label.empty()) current_label_ = step["label"].get<std::string>();
  if (scenario_deadline_.passed()) fail(step, "the scenario ran out of time before this step");
  before_step();
  const StepAction* action = action_of(step);
  if (!action) throw ScenarioBug("a step without exactly one action reached the executor: " + compact(step));
  if (!allowed_in(*action, s_.role))
    throw ScenarioBug(std::string("\"") + std::string(action->name) + "\" has no meaning in a " +
                      role_name(s_.role) + "-role scenario");
  Deadline dl = step_deadline(step);
  try {
    dispatch(*action, step, dl);
  } catch (const transport::TransportError& e) {
    fail(step, std::string("could not talk to the ") + target_noun() + ": " + e.what() + gone_note(), "", "", "",
         alive_req());
  }
}

void StepExecutor::dispatch(const StepAction& action, const json& step, Deadline dl) {
  const std::string_view name = action.name;
  if (name == "send") {
    conv_->send(subst(step["send"]), step.value("invalid", false), dl, step.value("as_written", false));
  } else if (name == "send_raw") {
    std::string bytes = subst(step["send_raw"]).get<std::string>();
    if (step.value("newline", true)) bytes += "\n";
    conv_->send_raw(bytes, dl);
  } else if (name == "notify") {
    json body = subst(step["notify"]);
    json msg = {{"jsonrpc", "2.0"}, {"method", body["method"]}};
    if (body.contains("params")) msg["params"] = body["params"];
    conv_->send(msg, step.value("invalid", false), dl);
  } else if (name == "request") {
    do_request(step, dl);
  } else if (name == "expect") {
    do_expect(step, dl);
  } else if (name == "expect_unordered") {
    do_expect_unordered(step, dl);
  } else if (name == "expect_silence_ms") {
    do_silence(step);
  } else if (name == "expect_no") {
    do_expect_no(step);
  } else if (name == "check") {
    do_check(step, dl);
  } else if (name == "collect") {
    json matcher = subst(step["collect"]);
    json out = json::array();
    // With within_ms: first waits for one matching message (none is no failure), so a probe can
    // go on once it has seen what it looks for instead of waiting for every answer. The wait also
    // ends once every request sent has been answered: what a probe looks for accompanies a request
    // in flight (a progress notification cannot follow its request's response).
    if (step.contains("within_ms")) {
      auto select = [&](const InboundMessage& m) { return filter_matches(matcher, m.json, "a message for collect"); };
      for (;;) {
        if (auto first = conv_->take(select, Deadline::after_ms(kCollectPollMs).earliest(dl))) {
          out.push_back(first->json);
          break;
        }
        if (dl.passed() || !conv_->requests_in_flight()) break;
      }
    }
    conv_->wait_until(Deadline::after_ms(0));
    std::vector<std::size_t> taken;
    for (const auto& m : conv_->inbox())
      if (filter_matches(matcher, m.json, "a message for collect")) {
        out.push_back(m.json);
        taken.push_back(m.seq);
      }
    for (auto seq : taken) conv_->consume(seq);
    vars_[step["as"].get<std::string>()] = out;
  } else if (name == "sleep_ms") {
    conv_->wait_until(Deadline::after_ms(step["sleep_ms"].get<int>()).earliest(scenario_deadline_));
  } else if (name == "await_answers_ms") {
    // For answers that cannot be waited for by id (to unreadable input): the whole window, or
    // until the transport proves no answer can still come.
    conv_->wait_for(Deadline::after_ms(step["await_answers_ms"].get<int>()).earliest(scenario_deadline_),
                    Awaiting::Answers);
  } else if (name == "signal" || name == "kill") {
    do_signal(step);
  } else {
    dispatch_role(action, step, dl);
  }
}

void StepExecutor::do_request(const json& step, Deadline dl) { request_and_match(step, subst(step["request"]), dl); }

void StepExecutor::request_and_match(const json& step, const json& body, Deadline dl) {
  json id = body.contains("id") ? body["id"] : conv_->next_request_id();
  json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", body["method"]}};
  if (body.contains("params")) msg["params"] = body["params"];
  conv_->send(msg, step.value("invalid", false), dl, step.value("as_written", false));
  auto key = protocol::id_key(id);
  auto got = conv_->take(
      [&](const InboundMessage& m) {
        return !m.json.contains("method") && m.kind.id && protocol::id_key(*m.kind.id) == key;
      },
      dl, Awaiting::Answers);
  std::string method = body["method"].get<std::string>();
  if (!got)
    fail(step, fmt::format("no response to {} (id {}) {}{}", method, compact(id), waited(step), gone_note()),
         "a response with id " + compact(id), waiting_summary(), "", alive_req());
  last_request_ = msg;
  last_response_ = got->json;
  json matcher = step.contains("expect") ? subst(step["expect"]) : json{{"result", {{"$type", "object"}}}};
  match_or_fail(step, matcher, got->json, peers("response to " + method));
  took(step, *got);
}

void StepExecutor::do_expect(const json& step, Deadline dl) {
  json matcher = subst(step["expect"]);
  auto got = conv_->take(selector_for(matcher), dl, awaiting_for(matcher));
  if (!got)
    fail(step, fmt::format("the expected message did not arrive {}{}", waited(step), gone_note()), pretty(matcher),
         waiting_summary(), "", alive_req());
  match_or_fail(step, matcher, got->json, peers("message"));
  took(step, *got);
}

void StepExecutor::do_expect_unordered(const json& step, Deadline dl) {
  std::vector<json> pending;
  for (const auto& m : step["expect_unordered"]) pending.push_back(subst(m));
  Awaiting awaiting = Awaiting::Answers;
  for (const auto& p : pending)
    if (awaiting_for(p) == Awaiting::Anything) awaiting = Awaiting::Anything;
  while (!pending.empty()) {
    std::size_t which = 0;
    auto got = conv_->take(
        [&](const InboundMessage& m) {
          auto picked = pick_expectation(pending, m.json);
          if (picked) which = *picked;
          return picked.has_value();
        },
        dl, awaiting);
    if (!got) {
      std::string missing;
      for (const auto& p : pending) missing += pretty(p) + "\n";
      fail(step, fmt::format("{} expected message(s) did not arrive {}{}", pending.size(), waited(step), gone_note()),
           missing, waiting_summary(), "", alive_req());
    }
    match_or_fail(step, pending[which], got->json, peers("message"));
    took(step, *got);
    pending.erase(pending.begin() + static_cast<long>(which));
  }
}

// The window ends early once no answer can arrive (or, when notifications are not allowed
// either, no message at all); whatever arrived until then is judged.
void StepExecutor::do_silence(const json& step) {
  std::size_t since = conv_->last_send_seq();
  bool allow_notes = step.value("allow_notifications", true);
  int ms = step["expect_silence_ms"].get<int>();
  conv_->wait_for(Deadline::after_ms(ms).earliest(scenario_deadline_),
                  allow_notes ? Awaiting::Answers : Awaiting::Anything);
  std::string bad;
  for (const auto& m : conv_->inbox()) {
    if (m.seq <= since) continue;
    if (allow_notes && m.kind.kind == protocol::Kind::Notification) continue;
    if (exempt_from_silence(m)) continue;
    bad += compact(m.json).substr(0, 400) + "\n";
  }
  if (!bad.empty())
    fail(step, fmt::format("expected silence for {} ms, but the {} sent something", ms, target_noun()),
         allow_notes ? "no responses or requests" : "no messages at all", bad);
}

void StepExecutor::do_expect_no(const json& step) {
  json matcher = subst(step["expect_no"]);
  conv_->wait_for(Deadline::after_ms(step["for_ms"].get<int>()).earliest(scenario_deadline_), awaiting_for(matcher));
  for (const auto& m : conv_->inbox())
    if (filter_matches(matcher, m.json, "a message against expect_no"))
      fail(step, "a message arrived that must not", "nothing matching " + compact(matcher), pretty(m.json));
}

// With within_ms a check waits for its value to match, substituting again as the conversation
// goes on (a client's ${http_requests}: after a fixed sleep, a client slower to start than the
// sleep has made no request, and "every request went to the right place" holds of none). At the
// deadline it fails (or cannot check) on the last value, as a plain check would.
void StepExecutor::do_check(const json& step, Deadline dl) {
  if (step.contains("within_ms")) {
    while (!dl.passed()) {
      auto m = match(subst(step["matches"]), subst(step["check"]));
      if (m.ok || !m.undecided.empty()) break;  // holds, or cannot be decided (waiting would not help)
      conv_->wait_until(Deadline::after_ms(50).earliest(dl));
      before_step();
    }
  }
  match_or_fail(step, subst(step["matches"]), subst(step["check"]), "the checked value");
}

void StepExecutor::do_signal(const json& step) {
  exit_expected_ = true;
  on_signalled();
  std::string name = step.contains("kill") ? "KILL" : step["signal"].get<std::string>();
  if (!conv_->transport()) throw transport::TransportError("no target connection");
  conv_->transport()->signal(signal_number(name));
  conv_->event("sent SIG" + name + " to the " + target_noun() + "'s process group");
}

void StepExecutor::start_vars(json extra) {
  vars_ = {{"protocol", cfg_.proposed_version},
           {"mcpspec", {{"version", MCPSPEC_VERSION}}},
           {"env", environment_object()},
           {"workdir", ""}};
  for (auto& [key, value] : extra.items()) vars_[key] = std::move(value);
  if (!s_.workdir_from.empty()) {
    workdir_ = std::make_unique<Workdir>(s_.workdir_from);
    vars_["workdir"] = workdir_->path();
  }
}

}  // namespace mcpspec::scenario
