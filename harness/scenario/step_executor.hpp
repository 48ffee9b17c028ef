#pragma once
// Runs a scenario's steps, whichever role the target plays. The steps both roles share (sending,
// requests, every kind of expect, silence, checks, sleeps, signals) are executed here, once; a
// role's executor (runner.cpp for servers, client_runner.cpp for clients) adds its own actions
// (step_table.hpp says which belong to which role), its conditions and what it does around a step.
#include "harness/scenario/conversation.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/model.hpp"
#include "harness/scenario/runner.hpp"
#include "harness/scenario/step_table.hpp"
#include "harness/scenario/workdir.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcpspec::scenario {

// A step failed: the scenario ends there (its verdict comes from the findings' levels).
struct StopScenario {};

class StepExecutor {
 public:
  StepExecutor(const Scenario& s, const RunConfig& cfg, ScenarioResult& r);
  virtual ~StepExecutor() = default;
  StepExecutor(const StepExecutor&) = delete;
  StepExecutor& operator=(const StepExecutor&) = delete;

  std::optional<std::string> skip_reason() const { return skip_reason_; }

 protected:
  // The role's conversation; set by the role's constructor (it owns it).
  void bind(Conversation& conversation) { conv_ = &conversation; }

  // Runs `steps`; `base_index` >= 0 numbers them (scenario steps), -1 for fixture steps. `label`
  // names an enclosing context ("fixture initialized", "tool echo") in failure messages.
  void run_steps(const nlohmann::json& steps, int base_index, const std::string& label);

  // Records a finding for the current step and ends the scenario (StopScenario).
  [[noreturn]] void fail(const nlohmann::json& step, std::string message, std::string expected = "",
                         std::string received = "", std::string diff = "", std::vector<std::string> extra_reqs = {});
  void match_or_fail(const nlohmann::json& step, const nlohmann::json& matcher, const nlohmann::json& message,
                     const std::string& what);
  nlohmann::json subst(const nlohmann::json& v) const;
  int step_wait_ms(const nlohmann::json& step) const;
  Deadline step_deadline(const nlohmann::json& step) const;
  std::string waiting_summary() const;
  // "within 5000 ms", or what ended the wait before that (the transport proved nothing more could
  // come: the failure is then certain, not a guess about a slow target).
  std::string waited(const nlohmann::json& step) const;

  // --- What each role decides ---
  // Runs an action of the role's own (a server-target or client-target action of the table).
  virtual void dispatch_role(const StepAction& action, const nlohmann::json& step, Deadline dl) = 0;
  // Whether a step's "if" holds.
  virtual bool condition_holds(const nlohmann::json& cond) const = 0;
  bool value_condition_holds(const nlohmann::json& cond) const;
  // Called before each step runs (a client role refreshes ${http_requests}).
  virtual void before_step() {}
  // Called with each message an expect or request took (a client role tracks its requests).
  virtual void took(const nlohmann::json& /*step*/, const InboundMessage& /*m*/) {}
  // Appended to "did not arrive" failures: how the target ended, if it did.
  virtual std::string gone_note() const = 0;
  // Extra requirements of a failure to hear from the target (MCPSPEC-ALIVE when it died unasked).
  virtual std::vector<std::string> alive_req() const { return {}; }
  // A message a silence window does not count (a client may ping at any time).
  virtual bool exempt_from_silence(const InboundMessage&) const { return false; }
  // The target's part in messages: "the message" / "the client's message".
  virtual std::string peers(const std::string& what) const = 0;
  // "target" / "client", in "could not talk to the target", "the target sent something".
  virtual const char* target_noun() const = 0;
  virtual void on_signalled() {}

  // Sends `body` ({method, params[, id]}, already substituted) as a request, takes its response
  // and matches it against the step's expect (default: any result). The request and its response
  // are kept as last_request_ / last_response_ (a retry of an input round resends the request).
  void request_and_match(const nlohmann::json& step, const nlohmann::json& body, Deadline dl);
  nlohmann::json last_request_ = nullptr, last_response_ = nullptr;

  // Sets the variables both roles start with (protocol, mcpspec, env, workdir) plus the role's
  // `extra`, and makes the scenario's working folder when it asks for one.
  void start_vars(nlohmann::json extra);

  const Scenario& s_;
  const RunConfig& cfg_;
  ScenarioResult& r_;
  std::unique_ptr<Workdir> workdir_;  // outlives the role's conversation: destroyed after the target stops
  Deadline scenario_deadline_;
  nlohmann::json vars_;
  bool exit_expected_ = false;
  int current_index_ = -1;
  std::string current_label_;
  std::optional<std::string> skip_reason_;

 private:
  void run_step(const nlohmann::json& step, int index, const std::string& label);
  void dispatch(const StepAction& action, const nlohmann::json& step, Deadline dl);
  void do_request(const nlohmann::json& step, Deadline dl);
  void do_expect(const nlohmann::json& step, Deadline dl);
  void do_expect_unordered(const nlohmann::json& step, Deadline dl);
  void do_silence(const nlohmann::json& step);
  void do_expect_no(const nlohmann::json& step);
  void do_check(const nlohmann::json& step, Deadline dl);
  void do_signal(const nlohmann::json& step);

  Conversation* conv_ = nullptr;
};

}  // namespace mcpspec::scenario
