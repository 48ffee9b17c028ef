#pragma once
// Small pieces both step executors (runner.cpp for servers, client_runner.cpp for clients) use.
#include "harness/protocol/capabilities.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcpspec::scenario {

using protocol::capability_declared;

struct MatchResult;

// A matcher could not decide (MatchResult::undecided: a $regex too costly on the string, a schema
// beyond mcpspec's limits). The scenario ends as ERROR saying what could not be checked, never as
// PASS or FAIL on a guess; a FAIL already found stands.
class CannotCheck : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws CannotCheck for an undecided result `m` of matching `what` ("the message", "a message
// for expect_no"): the reasons, on one line.
[[noreturn]] void throw_cannot_check(const std::string& what, const MatchResult& m);
[[noreturn]] void throw_cannot_check(const std::string& what, const std::vector<std::string>& reasons);

// The target's messages a session could not check against the schema (a user's --schema file
// beyond mcpspec's limits: ValidationOutcome::unchecked). Like an undecided match, they end the
// scenario as ERROR once its steps are done (a FAIL found meanwhile stands): the monitor watched
// the whole conversation, so a PASS would claim a check that was not made.
class UncheckedMessages {
 public:
  // Notes the reasons of one message; returns the wire-log line to write when there are any.
  std::optional<std::string> note(const std::vector<std::string>& reasons);
  // Throws CannotCheck naming `whose` messages ("the server's messages") and the first reasons.
  void raise_if_any(const std::string& whose) const;

 private:
  std::vector<std::string> reasons_;  // the first few distinct reasons, for the report
  std::size_t count_ = 0;             // every reason noted
};

// match(matcher, value), but CannotCheck (naming `what`) when it cannot decide: every step that
// acts on a match result goes through here, since taking an undecided result as a match or a
// mismatch would change what the scenario checks.
MatchResult decided_match(const nlohmann::json& matcher, const nlohmann::json& value, const std::string& what);

// A mismatch's lines, one per line: the diff of a failed expectation.
std::string mismatch_text(const MatchResult& m);

// For matchers used as a filter (expect_no, collect, foreach where, end_if): true on a match,
// false on a mismatch, CannotCheck when undecided (decided_match).
bool filter_matches(const nlohmann::json& matcher, const nlohmann::json& value, const std::string& what);

// Which of expect_unordered's `pending` matchers `message` meets: the first that matches, else the
// first that cannot decide on it (matching it again then throws CannotCheck: left waiting, the
// message would turn into a false "did not arrive"), else none.
std::optional<std::size_t> pick_expectation(const std::vector<nlohmann::json>& pending, const nlohmann::json& message);


// The harness's own environment as a JSON object (the `${env.NAME}` variables).
nlohmann::json environment_object();

// Calls `visit` for every step object of `steps`, depth first, including the nested steps of
// foreach bodies (each once, as written).
void for_each_step(const nlohmann::json& steps, const std::function<void(const nlohmann::json&)>& visit);

// The integer at `key` of a step, or 0 when absent or not an integer.
long long step_ms(const nlohmann::json& step, const char* key);

// True when a matcher can only select responses: an object with "result" or "error", or with
// "method": {"$absent": true}, and no other "method". Such a wait may end as soon as the transport
// proves no answer can still arrive (Awaiting::Answers in conversation.hpp).
bool selects_only_responses(const nlohmann::json& matcher);

// "TERM", "KILL", ... as a signal number; SIGTERM for a name not listed.
int signal_number(const std::string& name);

}  // namespace mcpspec::scenario
