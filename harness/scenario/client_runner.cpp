#include "harness/scenario/client_runner.hpp"

#include "harness/scenario/client_session.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/scenario_outcome.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/scenario/substitute.hpp"
#include "harness/scenario/workdir.hpp"
#include "harness/util/json_text.hpp"
#include "harness/protocol/schema_registry.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <string.h>

#include <algorithm>

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

struct StopScenario {};

// Capabilities the harness declares as a server unless the scenario says otherwise.
json default_declared() { return {{"tools", json::object()}}; }

std::function<bool(const InboundMessage&)> selector_for(const json& matcher) {
  if (matcher.is_object() && matcher.contains("id") && !matcher["id"].is_object()) {
    json id = matcher["id"];
    return [id](const InboundMessage& m) {
      return m.json.is_object() && m.json.contains("id") && m.json["id"] == id && !m.json.contains("method");
    };
  }
  if (matcher.is_object() && matcher.contains("method") && matcher["method"].is_string()) {
    std::string method = matcher["method"];
    return [method](const InboundMessage& m) { return m.kind.method == method; };
  }
  return [](const InboundMessage&) { return true; };
}

class ClientExecution {
 public:
  ClientExecution(const Scenario& s, const RunConfig& cfg, ScenarioResult& r)
      : s_(s), cfg_(cfg), r_(r), session_(s, SessionConfig{cfg.proposed_version, cfg.schemas, cfg.catalog}, r, Clock::now()),
        scenario_deadline_(scenario_deadline(s, cfg)) {}

  void run() {
    vars_ = {{"protocol", cfg_.proposed_version},
             {"answer_version", cfg_.proposed_version},
             {"client_version", nullptr},
             {"client_init", nullptr},
             {"client_capabilities", json::object()},
             {"declare", s_.declare.is_null() ? default_declared() : s_.declare},
             {"context", s_.client_context},
             {"mcpspec", {{"version", MCPSPEC_VERSION}}},
             {"env", environment_object()},
             {"workdir", ""}};
    if (!s_.workdir_from.empty()) {
      workdir_ = std::make_unique<Workdir>(s_.workdir_from);
      vars_["workdir"] = workdir_->path();
    }
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
    never_connected_ = session_.target() && session_.target()->connections() == 0;
    session_.unchecked().raise_if_any("the client's messages");
  }

  std::optional<std::string> skip_reason() const { return skip_reason_; }
  bool never_connected() const { return never_connected_; }
  std::string exit_text() const { return session_.exit() ? session_.exit()->text() : "still running"; }

 private:
  void start_client() {
    std::map<std::string, std::string> env = s_.env;
    env["MCPSPEC_SCENARIO"] = s_.id;
    env["MCPSPEC_CONTEXT"] = compact(s_.client_context);
    env["MCPSPEC_PROTOCOL"] = cfg_.proposed_version;
    auto t = cfg_.target.make(workdir_ ? workdir_->path() : std::string(), env);
    auto* ct = dynamic_cast<ClientTarget*>(t.get());
    if (!ct) throw ScenarioBug("transport " + t->name() + " cannot host a client under test");
    ct->configure(s_.transport_options);
    t.release();
    session_.attach(std::unique_ptr<ClientTarget>(ct));
  }

  int step_wait_ms(const json& step) const {
    int ms = step.contains("within_ms") ? step["within_ms"].get<int>() : s_.timeout_ms.value_or(cfg_.timeout_ms);
    if (!session_.heard_from_client()) ms = std::max(ms, cfg_.startup_timeout_ms);
    return ms;
  }
  Deadline step_deadline(const json& step) const {
    return Deadline::after_ms(step_wait_ms(step)).earliest(scenario_deadline_);
  }

  void fail(const json& step, std::string message, std::string expected = "", std::string received = "",
            std::string diff = "") {
    Finding f;
    f.requirements = step.contains("requirements") ? step["requirements"].get<std::vector<std::string>>()
                                                    : s_.requirements;
    f.level = step.contains("level") ? parse_level(step["level"]) : s_.level;
    if (step.contains("note")) message += " (" + step["note"].get<std::string>() + ")";
    if (!current_label_.empty()) message = current_label_ + ": " + message;
    f.message = std::move(message);
    f.step = current_index_;
    f.expected = std::move(expected);
    f.received = std::move(received);
    f.diff = std::move(diff);
    session_.add_finding(std::move(f));
    throw StopScenario{};
  }

  std::string gone_note() const {
    std::string n;
    if (session_.disconnected()) n += "; the server connection has ended";
    if (session_.exit()) n += "; the client ended (" + session_.exit()->text() + ")";
    if (session_.target() && session_.target()->connections() == 0) n += "; the client never started the server";
    return n;
  }

  std::string waiting_summary() const {
    std::string out;
    int n = 0;
    for (const auto& m : session_.inbox()) {
      if (n++ == 5) {
        out += "...\n";
        break;
      }
      out += compact(m.json).substr(0, 400) + "\n";
    }
    return out.empty() ? "(nothing unconsumed arrived)" : "unconsumed messages:\n" + out;
  }

  json subst(const json& v) const {
    try {
      return substitute(v, vars_);
    } catch (const SubstitutionError& e) {
      throw ScenarioBug(e.what());
    }
  }

  bool condition_holds(const json& cond) const {
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

  void took(const json& step, const InboundMessage& m) {
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
    }
    if (m.kind.kind == protocol::Kind::Request && m.kind.method == "initialize") on_initialize(m.json);
  }

  void match_or_fail(const json& step, const json& matcher, const json& message, const std::string& what) {
    auto m = decided_match(matcher, message, what);
    if (!m.ok) {
      fail(step, what + " does not match the expectation", pretty(matcher), pretty(message), mismatch_text(m));
    }
    for (const auto& [name, value] : m.captured.items()) vars_[name] = value;
    if (!step.contains("capture")) return;
    for (const auto& [name, ptr] : step["capture"].items()) {
      try {
        json::json_pointer jp(ptr.get<std::string>());
        if (message.contains(jp)) vars_[name] = message.at(jp);
        else fail(step, "capture \"" + name + "\": the message has nothing at " + ptr.get<std::string>(), "", compact(message));
      } catch (const json::exception& e) {
        throw ScenarioBug("capture \"" + name + "\": bad JSON pointer " + ptr.dump() + ": " + e.what());
      }
    }
  }

  void run_steps(const json& steps, int base_index, const std::string& label) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
      current_index_ = base_index >= 0 ? static_cast<int>(i) : -1;
      current_label_ = label.empty() ? "" : label + ", step " + std::to_string(i);
      const json& step = steps[i];
      if (step.contains("if") && !condition_holds(step["if"])) {
        session_.event(fmt::format("step {} skipped: its condition does not hold", i));
        continue;
      }
      if (step.contains("label") && label.empty()) current_label_ = step["label"].get<std::string>();
      if (scenario_deadline_.passed()) fail(step, "the scenario ran out of time before this step");
      refresh_http_requests();
      try {
        dispatch(step, step_deadline(step));
      } catch (const transport::TransportError& e) {
        fail(step, std::string("could not talk to the client: ") + e.what() + gone_note());
      }
    }
  }

  // Network carriers: the client's HTTP requests so far, for checks of HTTP-level rules.
  void refresh_http_requests() {
    if (auto http = session_.target() ? session_.target()->http_requests() : json(); !http.is_null())
      vars_["http_requests"] = std::move(http);
  }

  // A check with within_ms waits for its value to match, reading http_requests again as the
  // client acts: after a fixed sleep, a client slower to start than the sleep has made no request,
  // and "every request went to the right place" holds of none. At the deadline it fails (or
  // cannot check) on the last value, as a plain check would.
  void do_check(const json& step, Deadline dl) {
    if (step.contains("within_ms")) {
      while (!dl.passed()) {
        auto m = match(subst(step["matches"]), subst(step["check"]));
        if (m.ok || !m.undecided.empty()) break;  // holds, or cannot be decided (waiting would not help)
        session_.wait_until(Deadline::after_ms(50).earliest(dl));
        refresh_http_requests();
      }
    }
    match_or_fail(step, subst(step["matches"]), subst(step["check"]), "the checked value");
  }

  void dispatch(const json& step, Deadline dl) {
    // "expect" is also the response matcher of "request", so "request" is looked at first.
    if (step.contains("request")) do_request(step, dl);
    else if (step.contains("expect")) do_expect(step, dl);
    else if (step.contains("reply")) do_reply(step, dl);
    else if (step.contains("send")) session_.send(subst(step["send"]), step.value("invalid", false), dl);
    else if (step.contains("send_raw")) {
      std::string bytes = subst(step["send_raw"]).get<std::string>();
      if (step.value("newline", true)) bytes += "\n";
      session_.send_raw(bytes, dl);
    } else if (step.contains("notify")) {
      json body = subst(step["notify"]);
      json msg = {{"jsonrpc", "2.0"}, {"method", body["method"]}};
      if (body.contains("params")) msg["params"] = body["params"];
      session_.send(msg, step.value("invalid", false), dl);
    } else if (step.contains("expect_unordered")) do_expect_unordered(step, dl);
    else if (step.contains("expect_silence_ms")) do_silence(step);
    else if (step.contains("expect_no")) do_expect_no(step);
    else if (step.contains("check")) do_check(step, dl);
    else if (step.contains("sleep_ms"))
      session_.wait_until(Deadline::after_ms(step["sleep_ms"].get<int>()).earliest(scenario_deadline_));
    else if (step.contains("crash")) {
      exit_expected_ = true;
      session_.target()->crash_server();
      session_.event("crash: the server side died");
    } else if (step.contains("close")) {
      exit_expected_ = true;
      session_.target()->close_input();
      session_.event("close: the server closed its stdout (an orderly server exit)");
    } else if (step.contains("expect_disconnect")) do_expect_disconnect(step, dl);
    else if (step.contains("expect_client_exit")) do_expect_exit(step, dl);
    else if (step.contains("signal") || step.contains("kill")) {
      exit_expected_ = signalled_ = true;
      std::string name = step.contains("kill") ? "KILL" : step["signal"].get<std::string>();
      session_.target()->signal(signal_number(name));
      session_.event("sent SIG" + name + " to the client's process group");
    } else {
      std::string keys;
      for (const auto& [k, v] : step.items()) keys += (keys.empty() ? "" : ", ") + k;
      throw ScenarioBug("this step (" + keys + ") has no meaning in a client-role scenario");
    }
  }

  void do_expect(const json& step, Deadline dl) {
    json matcher = subst(step["expect"]);
    auto got = session_.take(selector_for(matcher), dl);
    if (!got)
      fail(step, fmt::format("the expected message did not arrive within {} ms{}", step_wait_ms(step), gone_note()),
           pretty(matcher), waiting_summary());
    match_or_fail(step, matcher, got->json, "the client's message");
    took(step, *got);
  }

  void do_reply(const json& step, Deadline dl) {
    json body = subst(step["reply"]);
    json id = step.contains("to") ? subst(step["to"]) : last_request_id_;
    if (!have_last_request_ && !step.contains("to"))
      throw ScenarioBug("reply: no request from the client was taken before (add \"to\")");
    if (step.contains("delay_ms"))
      session_.wait_until(Deadline::after_ms(step["delay_ms"].get<int>()).earliest(scenario_deadline_));
    json msg = {{"jsonrpc", "2.0"}, {"id", id}};
    for (const auto& [k, v] : body.items()) msg[k] = v;
    // Echoing a client's malformed id (null, object) is not a scenario bug: the monitors report it.
    bool echoes_bad_id = !(id.is_string() || id.is_number_integer());
    session_.send(msg, step.value("invalid", false) || echoes_bad_id, dl);
  }

  void do_request(const json& step, Deadline dl) {
    json body = subst(step["request"]);
    json id = body.contains("id") ? body["id"] : session_.next_request_id();
    json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", body["method"]}};
    if (body.contains("params")) msg["params"] = body["params"];
    session_.send(msg, step.value("invalid", false), dl);
    auto key = protocol::id_key(id);
    auto got = session_.take(
        [&](const InboundMessage& m) { return !m.json.contains("method") && m.kind.id && protocol::id_key(*m.kind.id) == key; },
        dl);
    std::string method = body["method"];
    if (!got)
      fail(step, fmt::format("no response to {} (id {}) within {} ms{}", method, compact(id), step_wait_ms(step), gone_note()),
           "a response with id " + compact(id), waiting_summary());
    json matcher = step.contains("expect") ? subst(step["expect"]) : json{{"result", {{"$type", "object"}}}};
    match_or_fail(step, matcher, got->json, "the client's response to " + method);
    took(step, *got);
  }

  void do_expect_unordered(const json& step, Deadline dl) {
    std::vector<json> pending;
    for (const auto& m : step["expect_unordered"]) pending.push_back(subst(m));
    while (!pending.empty()) {
      std::size_t which = 0;
      auto got = session_.take(
          [&](const InboundMessage& m) {
            auto picked = pick_expectation(pending, m.json);
            if (picked) which = *picked;
            return picked.has_value();
          },
          dl);
      if (!got) {
        std::string missing;
        for (const auto& p : pending) missing += pretty(p) + "\n";
        fail(step, fmt::format("{} expected message(s) did not arrive within {} ms{}", pending.size(), step_wait_ms(step),
                               gone_note()),
             missing, waiting_summary());
      }
      match_or_fail(step, pending[which], got->json, "the client's message");
      took(step, *got);
      pending.erase(pending.begin() + static_cast<long>(which));
    }
  }

  void do_silence(const json& step) {
    std::size_t since = session_.last_send_seq();
    int ms = step["expect_silence_ms"].get<int>();
    session_.wait_until(Deadline::after_ms(ms).earliest(scenario_deadline_));
    bool allow_notes = step.value("allow_notifications", true);
    std::string bad;
    for (const auto& m : session_.inbox()) {
      if (m.seq <= since) continue;
      if (allow_notes && m.kind.kind == protocol::Kind::Notification) continue;
      if (m.kind.method == "ping") continue;  // a client may ping at any time
      bad += compact(m.json).substr(0, 400) + "\n";
    }
    if (!bad.empty())
      fail(step, fmt::format("expected silence for {} ms, but the client sent something", ms),
           allow_notes ? "no requests or responses (pings allowed)" : "no messages (pings allowed)", bad);
  }

  void do_expect_no(const json& step) {
    json matcher = subst(step["expect_no"]);
    session_.wait_until(Deadline::after_ms(step["for_ms"].get<int>()).earliest(scenario_deadline_));
    for (const auto& m : session_.inbox())
      if (filter_matches(matcher, m.json, "a message against expect_no"))
        fail(step, "a message arrived that must not", "nothing matching " + compact(matcher), pretty(m.json));
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

  const Scenario& s_;
  const RunConfig& cfg_;
  ScenarioResult& r_;
  std::unique_ptr<Workdir> workdir_;
  ClientSession session_;
  Deadline scenario_deadline_;
  json vars_;
  json last_request_id_ = nullptr;
  bool have_last_request_ = false;
  double last_taken_ms_ = 0;
  bool exit_expected_ = false, signalled_ = false, never_connected_ = false;
  int current_index_ = -1;
  std::string current_label_;
  std::optional<std::string> skip_reason_;
};

}  // namespace

ScenarioResult run_client_scenario(const Scenario& s, const RunConfig& cfg) {
  std::optional<std::string> not_cooperative;
  if (!cfg.cooperative_client && std::find(s.tags.begin(), s.tags.end(), kCooperativeTag) != s.tags.end())
    not_cooperative =
        "needs a cooperative client (one that follows MCPSPEC_CONTEXT; run with --cooperative, see "
        "docs/testing-clients.md)";
  return run_with_outcome(s, cfg, {"client", "client", "answers with", "client"}, not_cooperative,
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
