#include "harness/scenario/client_runner.hpp"

#include "harness/scenario/client_session.hpp"
#include "harness/monitor/modern_requests.hpp"
#include "harness/protocol/era.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/modern_reply.hpp"
#include "harness/scenario/mrtr_retry.hpp"
#include "harness/scenario/step_executor.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/scenario_outcome.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/scenario/substitute.hpp"
#include "harness/scenario/workdir.hpp"
#include "harness/transport/http/fetch_trap.hpp"
#include "harness/util/json_text.hpp"
#include "harness/protocol/schema_registry.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <string.h>

#include <algorithm>

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

// Capabilities the harness declares as a server unless the scenario says otherwise.
json default_declared() { return {{"tools", json::object()}}; }


// The client-role executor: the harness plays the server of a client under test.
class ClientExecution : public StepExecutor {
 public:
  ClientExecution(const Scenario& s, const RunConfig& cfg, ScenarioResult& r)
      : StepExecutor(s, cfg, r),
        session_(s, SessionConfig{cfg.proposed_version, cfg.schemas, cfg.catalog}, r, Clock::now()) {
    bind(session_);
  }

  void run() {
    start_vars({{"answer_version", cfg_.proposed_version},
                {"client_version", nullptr},
                {"client_init", nullptr},
                {"client_capabilities", json::object()},
                {"declare", s_.declare.is_null() ? default_declared() : s_.declare},
                {"serve_versions", served_versions()},
                {"context", s_.client_context}});
    if (s_.fetch_trap) {
      fetch_trap_ = std::make_unique<transport::http::FetchTrap>();
      vars_["fetch_trap"] = {{"url", fetch_trap_->url()}, {"requests", json::array()}};
    }
    session_.serve_modern({vars_["serve_versions"].get<std::vector<std::string>>(),
                           discover_result(vars_["serve_versions"].get<std::vector<std::string>>(), vars_["declare"],
                                           vars_["mcpspec"]["version"].get<std::string>())});
    start_client();
    try {
      if (!s_.fixture_steps.empty()) {
        run_steps(s_.fixture_steps, -1, "fixture " + s_.fixture);
        for (const auto& cap : s_.client_capabilities)
          if (!capability_declared(session_.client_capabilities(), cap)) {
            skip_reason_ = "the client does not declare the " + cap + " capability";
            return;
          }
      }
      run_steps(s_.steps, 0, "");
    } catch (const StopScenario&) {
    }
    session_.wait_until(Deadline::after_ms(0));
    if (!signalled_ && session_.exit() && session_.exit()->signal != 0 && s_.monitor_on("alive"))
      session_.add_finding({{"MCPSPEC-ALIVE"}, Level::Must,
                            "[alive] the client crashed: " + session_.exit()->text() + " (nothing signalled it)", -1,
                            "", "", ""});
    r_.negotiated = vars_["answer_version"].is_string() && session_.target() && session_.target()->connections() > 0
                        ? vars_["answer_version"].get<std::string>()
                        : "";
    // A client refused by --auth's 401 has still reached the server.
    json http = session_.target() ? session_.target()->http_requests() : json();
    never_connected_ = session_.target() && session_.target()->connections() == 0 && !(http.is_array() && !http.empty());
    session_.unchecked().raise_if_any("the client's messages");
  }

  bool never_connected() const { return never_connected_; }

  // The modern versions the harness serves statelessly: the scenario's list, else the run's
  // version when it is modern (a legacy run serves none, so older versions' runs are unchanged).
  std::vector<std::string> served_versions() const {
    if (!s_.serve_versions.is_null()) return s_.serve_versions.get<std::vector<std::string>>();
    if (protocol::is_modern(cfg_.proposed_version)) return {cfg_.proposed_version};
    return {};
  }
  std::string exit_text() const { return session_.exit() ? session_.exit()->text() : "still running"; }

 private:
  void start_client() {
    std::map<std::string, std::string> env = s_.env;
    env["MCPSPEC_SCENARIO"] = s_.id;
    env["MCPSPEC_CONTEXT"] = compact(s_.client_context);
    env["MCPSPEC_PROTOCOL"] = cfg_.proposed_version;
    // The official conformance suite's names for the same things, so an SDK's existing conformance
    // client runs unchanged (docs/testing-clients.md, "The official process contract").
    const json& official = s_.client_context.is_object() ? s_.client_context.value("conformance", json()) : json();
    env["MCP_CONFORMANCE_SCENARIO"] =
        official.is_object() && official.contains("scenario") ? official["scenario"].get<std::string>() : s_.id;
    env["MCP_CONFORMANCE_PROTOCOL_VERSION"] = cfg_.proposed_version;
    if (official.is_object() && official.contains("context")) env["MCP_CONFORMANCE_CONTEXT"] = compact(official["context"]);
    auto carrier = cfg_.carrier.make(workdir_ ? workdir_->path() : std::string(), env);
    carrier->configure(s_.transport_options);
    carrier->serve_versions(served_versions());
    session_.attach(std::move(carrier));
  }

  std::string gone_note() const override {
    std::string n;
    if (session_.disconnected()) n += "; the server connection has ended";
    if (session_.exit()) n += "; the client ended (" + session_.exit()->text() + ")";
    if (session_.target() && session_.target()->connections() == 0) n += "; the client never started the server";
    return n;
  }

  std::string peers(const std::string& what) const override { return "the client's " + what; }
  const char* target_noun() const override { return "client"; }
  bool exempt_from_silence(const InboundMessage& m) const override { return m.kind.method == "ping"; }  // a client may ping at any time
  void on_signalled() override { signalled_ = true; }

  bool condition_holds(const json& cond) const override {
    if (cond.contains("client_capabilities"))
      for (const auto& c : cond["client_capabilities"])
        if (!capability_declared(session_.client_capabilities(), c.get<std::string>())) return false;
    if (cond.contains("client_lacks"))
      for (const auto& c : cond["client_lacks"])
        if (capability_declared(session_.client_capabilities(), c.get<std::string>())) return false;
    if (cond.contains("protocol")) {
      auto range = protocol::VersionRange::parse(cond["protocol"]);
      std::string v = vars_["answer_version"].is_string() ? vars_["answer_version"].get<std::string>() : cfg_.proposed_version;
      if (!range.contains(v)) return false;
    }
    return true;
  }

  // The client's initialize request decides which version the harness answers with: the client's
  // own when the harness implements it and it is not newer than this run's version, else the run's.
  void on_initialize(const json& msg) {
    const json& p = msg.contains("params") && msg["params"].is_object() ? msg["params"] : json::object();
    vars_["client_init"] = p;
    vars_["client_capabilities"] = p.contains("capabilities") ? p["capabilities"] : json::object();
    std::string answer = cfg_.proposed_version;
    if (p.contains("protocolVersion") && p["protocolVersion"].is_string()) {
      std::string v = p["protocolVersion"];
      vars_["client_version"] = v;
      if (cfg_.schemas && cfg_.schemas->has_version(v) && v < cfg_.proposed_version) answer = v;
    }
    vars_["answer_version"] = answer;
  }

  void took(const json& step, const InboundMessage& m) override {
    double since_previous = m.t_ms - last_taken_ms_;
    if (step.contains("not_before_ms") && since_previous < step["not_before_ms"].get<int>())
      fail(step,
           fmt::format("the message arrived {:.0f} ms after the previous one, expected at least {} ms", since_previous,
                       step["not_before_ms"].get<int>()),
           "", pretty(m.json));
    last_taken_ms_ = m.t_ms;
    if (m.kind.kind == protocol::Kind::Request && m.kind.id) {
      last_request_id_ = *m.kind.id;
      have_last_request_ = true;
      taken_requests_[protocol::id_key(*m.kind.id)] = m.json;
    }
    if (m.kind.kind == protocol::Kind::Request && m.kind.method == "initialize") on_initialize(m.json);
    if (m.kind.kind == protocol::Kind::Request && s_.fixture_steps.empty() && !modern_declaration_judged_ &&
        monitor::modern_version_of(m.json))
      judge_modern_declaration(m.json);
  }

  // A 2026-07-28 client declares its capabilities on each request, not once in initialize: the
  // scenario's requires.client_capabilities is judged on the _meta of the first request a step
  // takes, and a client that lacks one SKIPs the scenario there (it never passes it).
  void judge_modern_declaration(const json& request) {
    modern_declaration_judged_ = true;
    const json* meta = monitor::meta_of(request);
    const json* caps = meta && meta->contains(protocol::meta_key::kClientCapabilities)
                           ? &(*meta)[protocol::meta_key::kClientCapabilities]
                           : nullptr;
    for (const auto& cap : s_.client_capabilities)
      if (!caps || !capability_declared(*caps, cap)) {
        skip_reason_ = "the client does not declare the " + cap + " capability (in the _meta of its " +
                       request.value("method", std::string("first")) + " request)";
        throw StopScenario{};
      }
  }

  // Network carriers: the client's HTTP requests so far, for checks of HTTP-level rules.
  void before_step() override {
    if (auto http = session_.target() ? session_.target()->http_requests() : json(); !http.is_null())
      vars_["http_requests"] = std::move(http);
    if (auto a = session_.target() ? session_.target()->auth_state() : json(); !a.is_null()) vars_["auth"] = std::move(a);
    if (fetch_trap_) vars_["fetch_trap"]["requests"] = fetch_trap_->requests();
  }

  void dispatch_role(const StepAction& action, const json& step, Deadline dl) override {
    const std::string_view name = action.name;
    if (name == "reply") {
      do_reply(step, dl);
    } else if (name == "input_required") {
      do_input_required(step, dl);
    } else if (name == "expect_retry") {
      do_expect_retry(step, dl);
    } else if (name == "crash") {
      exit_expected_ = true;
      connections_at_end_ = session_.target()->connections();
      session_.target()->crash_server();
      session_.event("crash: the server side died");
    } else if (name == "close") {
      exit_expected_ = true;
      connections_at_end_ = session_.target()->connections();
      session_.target()->close_input();
      session_.event("close: the server closed its stdout (an orderly server exit)");
    } else if (name == "skip_unless_reconnected") {
      do_skip_unless_reconnected(step, dl);
    } else if (name == "expect_disconnect") {
      do_expect_disconnect(step, dl);
    } else if (name == "expect_client_exit") {
      do_expect_exit(step, dl);
    } else {
      throw ScenarioBug("\"" + std::string(name) + "\" has no meaning in a client-role scenario");
    }
  }

  // The id a reply step answers: its "to", else the last request a step took.
  json reply_id(const json& step, const char* action) const {
    if (!have_last_request_ && !step.contains("to"))
      throw ScenarioBug(std::string(action) + ": no request from the client was taken before (add \"to\")");
    return step.contains("to") ? subst(step["to"]) : last_request_id_;
  }

  // The client's request a reply answers (null when no step took it).
  json answered_request(const json& id) const {
    auto it = taken_requests_.find(protocol::id_key(id));
    return it == taken_requests_.end() ? json() : it->second;
  }

  void do_reply(const json& step, Deadline dl) {
    json body = subst(step["reply"]);
    json id = reply_id(step, "reply");
    if (step.contains("delay_ms"))
      session_.wait_until(Deadline::after_ms(step["delay_ms"].get<int>()).earliest(scenario_deadline_));
    json msg = {{"jsonrpc", "2.0"}, {"id", id}};
    for (const auto& [k, v] : body.items()) msg[k] = v;
    // A modern request's result gets what every 2026-07-28 result carries (modern_reply.hpp).
    json request = answered_request(id);
    if (!step.value("invalid", false) && msg.contains("result") && request.is_object() &&
        monitor::modern_version_of(request))
      msg["result"] = complete_modern_result(msg["result"], request.value("method", ""));
    // Echoing a client's malformed id (null, object) is not a scenario bug: the monitors report it.
    bool echoes_bad_id = !(id.is_string() || id.is_number_integer());
    session_.send(msg, step.value("invalid", false) || echoes_bad_id, dl);
  }

  // Answers the request with an input_required result (MRTR) and remembers the round, for
  // expect_retry.
  void do_input_required(const json& step, Deadline dl) {
    json id = reply_id(step, "input_required");
    json original = answered_request(id);
    if (!original.is_object()) throw ScenarioBug("input_required: the request it answers was not taken by a step");
    if (step.contains("delay_ms"))
      session_.wait_until(Deadline::after_ms(step["delay_ms"].get<int>()).earliest(scenario_deadline_));
    json result = subst(step["input_required"]);
    result["resultType"] = protocol::result_type::kInputRequired;
    session_.send({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}, false, dl);
    mrtr_rounds_.push_back({std::move(original), std::move(result)});
  }

  // Waits for the retry of the request last answered with input_required (or of the request
  // "to" names) and judges it: each problem names its own requirement (mrtr_retry.hpp), at the
  // catalog's level for it. The rounds given to requests of other targets (another tool, prompt
  // or resource) are the ones whose requestState and input keys must stay out of it (MRTR-13).
  void do_expect_retry(const json& step, Deadline dl) {
    if (mrtr_rounds_.empty()) throw ScenarioBug("expect_retry: no input_required step came before");
    auto round = mrtr_rounds_.rbegin();
    if (step.contains("to")) {
      const std::string key = protocol::id_key(subst(step["to"]));
      round = std::find_if(mrtr_rounds_.rbegin(), mrtr_rounds_.rend(),
                           [&](const MrtrRound& r) { return protocol::id_key(r.original["id"]) == key; });
      if (round == mrtr_rounds_.rend())
        throw ScenarioBug("expect_retry: no input_required step answered the request its \"to\" names");
    }
    const json& original = round->original;
    std::vector<json> others;
    for (const auto& r : mrtr_rounds_)
      if (!is_retry_of(original, r.original)) others.push_back(r.result);
    auto got = session_.take(
        [&](const InboundMessage& m) {
          return m.kind.kind == protocol::Kind::Request && is_retry_of(original, m.json);
        },
        dl);
    if (!got)
      fail(step, fmt::format("the client did not retry its {} {}{}", original.value("method", "request"),
                             waited(step), gone_note()),
           "a " + original.value("method", std::string("request")) + " carrying inputResponses", waiting_summary(),
           "", {"MRTR-09"});
    auto problems = judge_retry(original, round->result, got->json, others);
    if (!problems.empty()) {
      json judged = step;
      std::vector<std::string> reqs;
      std::string text;
      for (const auto& p : problems) {
        if (std::find(reqs.begin(), reqs.end(), p.requirement) == reqs.end()) reqs.push_back(p.requirement);
        text += (text.empty() ? "" : "; ") + p.text;
      }
      judged["requirements"] = reqs;
      if (cfg_.catalog) judged["level"] = level_name(cfg_.catalog->strictest_level(cfg_.proposed_version, reqs));
      fail(judged, text, "", pretty(got->json));
    }
    match_or_fail(step, step["expect_retry"].is_object() ? subst(step["expect_retry"]) : json::object(), got->json,
                  peers("retry"));
    took(step, *got);
  }

  // "skip_unless_reconnected": REASON. A rule about what a client does once it has started the
  // server again (SUB-12: the listen re-sent) does not apply to a client that does not restart it:
  // waits until the client opens a new connection after the last close/crash step, else the
  // scenario ends SKIP with REASON, neither PASS nor FAIL.
  void do_skip_unless_reconnected(const json& step, Deadline dl) {
    if (connections_at_end_ < 0) throw ScenarioBug("skip_unless_reconnected: no close or crash step came before");
    while (session_.target()->connections() <= connections_at_end_ && !dl.passed())
      session_.wait_until(Deadline::after_ms(20).earliest(dl));
    if (session_.target()->connections() > connections_at_end_) return;
    skip_reason_ = step["skip_unless_reconnected"].get<std::string>() +
                   fmt::format(" (the client did not start the server again within {} ms)", step_wait_ms(step));
    throw StopScenario{};
  }

  void do_expect_disconnect(const json& step, Deadline dl) {
    exit_expected_ = true;
    if (!session_.wait_disconnect(dl))
      fail(step, fmt::format("the client did not end the server connection within {} ms{}", step_wait_ms(step), gone_note()));
    // Give the bridge's account of how it ended a moment to arrive.
    session_.wait_until(Deadline::after_ms(100).earliest(scenario_deadline_));
    std::string how = session_.last_bridge_note();
    session_.event("the server side ended: " + (how.empty() ? std::string("(no word from the bridge)") : how));
    std::string want = step["expect_disconnect"].value("how", "any");
    if (want == "stdin_closed" && how.find("closed stdin") == std::string::npos)
      fail(step, "the client ended the server without closing its stdin first", "the client closes the server's stdin",
           how.empty() ? "the server process ended without a word (killed?)" : how);
  }

  void do_expect_exit(const json& step, Deadline dl) {
    exit_expected_ = true;
    auto st = session_.wait_exit(dl);
    if (!st) {
      if (step.value("allow_running", false)) {
        session_.event("the client is still running, which this step allows");
        return;
      }
      fail(step, fmt::format("the client did not exit within {} ms", step_wait_ms(step)));
    }
    if (step["expect_client_exit"].contains("code")) {
      json code = st->signal ? json(std::string("SIG") + (sigabbrev_np(st->signal) ? sigabbrev_np(st->signal) : "?"))
                             : json(st->code);
      match_or_fail(step, subst(step["expect_client_exit"]["code"]), code, "the client's exit status");
    }
  }

  ClientSession session_;
  json last_request_id_ = nullptr;
  std::map<std::string, json> taken_requests_;  // id_key -> the client's request a step took
  struct MrtrRound {
    json original, result;  // the request answered with input_required, and that result
  };
  std::vector<MrtrRound> mrtr_rounds_;  // every input_required round of the scenario, in order
  std::unique_ptr<transport::http::FetchTrap> fetch_trap_;  // the scenario's fetch_trap, when it asks for one
  bool have_last_request_ = false;
  double last_taken_ms_ = 0;
  bool signalled_ = false, never_connected_ = false;
  int connections_at_end_ = -1;  // the client's connections when the last close/crash step ended one
  bool modern_declaration_judged_ = false;
};

}  // namespace

ScenarioResult run_client_scenario(const Scenario& s, const RunConfig& cfg) {
  std::optional<std::string> not_cooperative;
  if (!cfg.cooperative_client && std::find(s.tags.begin(), s.tags.end(), kCooperativeTag) != s.tags.end())
    not_cooperative =
        "needs a cooperative client (one that follows MCPSPEC_CONTEXT; run with --cooperative, see "
        "docs/testing-clients.md)";
  if (!cfg.auth_client && std::find(s.tags.begin(), s.tags.end(), kAuthTag) != s.tags.end())
    not_cooperative = "needs a protected endpoint and the mock authorization server (run with --auth --transport http, "
                      "see docs/authorization.md)";
  return run_with_outcome(s, cfg, {Role::Client, "answers with", "client"}, not_cooperative,
                          [&](ScenarioResult& r) {
                            ClientExecution ex(s, cfg, r);
                            ex.run();
                            ExecutionEnd end{ex.skip_reason(), std::nullopt};
                            if (ex.never_connected() && !r.findings.empty())
                              end.error = "the client never started the server (did the command run {server}?); client " +
                                          ex.exit_text();
                            return end;
                          });
}

}  // namespace mcpspec::scenario
