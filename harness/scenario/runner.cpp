#include "harness/scenario/runner.hpp"

#include "harness/scenario/http_steps.hpp"
#include "harness/scenario/client_runner.hpp"
#include "harness/scenario/handshake_memo.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/scenario_outcome.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/scenario/session.hpp"
#include "harness/scenario/step_executor.hpp"
#include "harness/scenario/substitute.hpp"
#include "harness/scenario/workdir.hpp"
#include "harness/protocol/era.hpp"
#include "harness/util/json_text.hpp"
#include "harness/transport/child_process.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <string.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

const char* items_key(const std::string& method) {
  if (method == "tools/list") return "tools";
  if (method == "resources/list") return "resources";
  if (method == "resources/templates/list") return "resourceTemplates";
  return "prompts";
}


// The server-role executor: the harness plays the client of a server under test.
class Execution : public StepExecutor {
 public:
  Execution(const Scenario& s, const RunConfig& cfg, ScenarioResult& r)
      : StepExecutor(s, cfg, r),
        session_(s, SessionConfig{cfg.proposed_version, cfg.schemas, cfg.catalog}, r, Clock::now()) {
    bind(session_);
  }

  void run() {
    start_vars({{"negotiated", nullptr}, {"server_capabilities", nullptr}, {"alive", alive_probe()}});
    if (protocol::is_modern(cfg_.proposed_version) && !s_.modern_fixture.empty() && s_.modern_fixture_steps.is_null()) {
      skip_reason_ = "fixture \"" + s_.modern_fixture + "\" (what \"" + s_.fixture + "\" becomes at " +
                     cfg_.proposed_version + ") was not found next to the scenario or above it";
      return;
    }
    if (auto why = decided_by_earlier_handshake()) {
      skip_reason_ = *why;
      return;
    }
    start_target();
    try {
      if (!fixture_steps().empty()) {
        run_fixture("");
        if (has_must_failure()) return;
        r_.negotiated = session_.negotiated();
        vars_["negotiated"] = session_.negotiated().empty() ? json(nullptr) : json(session_.negotiated());
        vars_["server_capabilities"] = session_.server_capabilities();
        auto not_served = modern_gate();
        remember_handshake(not_served);
        if (not_served) {
          skip_reason_ = *not_served;
          return;
        }
        if (auto why = handshake_gate(s_, session_.negotiated(), session_.server_capabilities())) {
          skip_reason_ = *why;
          return;
        }
      }
      run_steps(s_.steps, 0, "");
    } catch (const StopScenario&) {
    }
    check_still_alive();
    session_.unchecked().raise_if_any("the server's messages");
  }

 private:
  bool has_must_failure() const {
    for (const auto& f : r_.findings)
      if (f.level == Level::Must) return true;
    return false;
  }

  // The request scenarios send to see that the server still answers after a hostile exchange, and
  // what its answer must match: ping where it exists, server/discover (every modern server answers
  // it) where ping was removed.
  json alive_probe() const {
    if (protocol::is_modern(cfg_.proposed_version))
      return {{"method", "server/discover"}, {"result", {{"supportedVersions", {{"$type", "array"}}}}}};
    return {{"method", "ping"}, {"result", {{"$exact", json::object()}}}};
  }

  const json& fixture_steps() const { return s_.fixture_steps_at(cfg_.proposed_version); }

  void run_fixture(const std::string& when) {
    run_steps(fixture_steps(), -1, "fixture " + s_.fixture_at(cfg_.proposed_version) + when);
  }

  // At a modern version the fixture captured the whole server/discover response as "discover"
  // (fixtures/discovered.json). A server that answers it with an error, or does not list the
  // version, does not serve this version: the scenario is skipped, as a legacy scenario is when the
  // server negotiates a version outside its range (mcp/discovery/ judges discover itself). The
  // DiscoverResult becomes "init", the variable the handshake result was, so scenarios that read
  // ${init.capabilities} run in both eras.
  std::optional<std::string> modern_gate() {
    if (!protocol::is_modern(cfg_.proposed_version) || !vars_.contains("discover")) return std::nullopt;
    const json& d = vars_["discover"];
    if (d.contains("error"))
      return "the server does not serve " + cfg_.proposed_version + ": server/discover was answered with the error " +
             compact(d["error"]).substr(0, 300);
    if (!d.contains("result") || !d["result"].is_object()) return std::nullopt;
    vars_["init"] = d["result"];
    if (session_.negotiated().empty())
      return "the server does not list " + cfg_.proposed_version + " in its supportedVersions " +
             compact(d["result"].value("supportedVersions", json(nullptr))).substr(0, 300);
    return std::nullopt;
  }

  void start_target() {
    auto t = cfg_.target.make(workdir_ ? workdir_->path() : std::string(), s_.env);
    t->configure(s_.transport_options);
    session_.attach(std::move(t));
  }

  // A clean handshake (no finding at all, the target still there) is kept for the run's other
  // scenarios; one with findings is not, so those findings are reported by every scenario as before.
  void remember_handshake(const std::optional<std::string>& not_served) {
    if (!cfg_.handshakes || !r_.findings.empty() || session_.target_gone()) return;
    cfg_.handshakes->remember(handshake_key(s_, cfg_),
                              {session_.negotiated(), session_.server_capabilities(), not_served});
  }

  // The SKIP an earlier scenario's identical handshake already decides for this one: its reason,
  // and the target is not started for it.
  std::optional<std::string> decided_by_earlier_handshake() {
    if (!cfg_.handshakes || fixture_steps().empty()) return std::nullopt;
    auto seen = cfg_.handshakes->find(handshake_key(s_, cfg_));
    if (!seen) return std::nullopt;
    auto why = seen->not_served ? seen->not_served : handshake_gate(s_, seen->negotiated, seen->server_capabilities);
    if (!why) return std::nullopt;
    r_.negotiated = seen->negotiated;
    session_.event("not started: an earlier scenario made the same handshake with the target, which decides this SKIP");
    return why;
  }

  std::string gone_note() const override {
    return session_.target_gone() ? "; " + session_.gone_reason() : std::string();
  }
  std::string peers(const std::string& what) const override { return "the " + what; }
  const char* target_noun() const override { return "target"; }

  std::vector<std::string> alive_req() const override {
    return session_.target_gone() && !exit_expected_ ? std::vector<std::string>{"MCPSPEC-ALIVE"}
                                                     : std::vector<std::string>{};
  }

  bool condition_holds(const json& cond) const override {
    if (cond.contains("server_capabilities"))
      for (const auto& c : cond["server_capabilities"])
        if (!capability_declared(session_.server_capabilities(), c.get<std::string>())) return false;
    if (cond.contains("protocol")) {
      auto range = protocol::VersionRange::parse(cond["protocol"]);
      std::string v = session_.negotiated().empty() ? cfg_.proposed_version : session_.negotiated();
      if (!range.contains(v)) return false;
    }
    return true;
  }

  void dispatch_role(const StepAction& action, const json& step, Deadline dl) override {
    const std::string_view name = action.name;
    if (name == "http") {
      do_http(step, dl);
    } else if (name == "list") {
      do_list(step, dl);
    } else if (name == "foreach") {
      do_foreach(step, current_index_);
    } else if (name == "close_stdin") {
      exit_expected_ = true;
      session_.transport()->close_input();
      session_.event("closed the target's stdin");
    } else if (name == "expect_exit") {
      exit_expected_ = true;
      do_expect_exit(step, dl);
    } else if (name == "restart") {
      exit_expected_ = false;
      start_target();
      if (!fixture_steps().empty()) run_fixture(" (after restart)");
    } else if (name == "run") {
      do_run(step, dl);
    } else if (name == "file") {
      do_file(step);
    } else if (name == "retry") {
      do_retry(step, dl);
    } else if (name == "skip_unless_retried") {
      do_skip_unless_retried(step);
    } else {
      throw ScenarioBug("\"" + std::string(name) + "\" has no meaning in a server-role scenario");
    }
  }

  // One exact HTTP request (http_steps.hpp); "end_if" ends the scenario (passing) when its matcher
  // holds, for checks that only apply to some servers (no session ids, DELETE -> 405).
  void do_http(const json& step, Deadline dl) {
    const json spec = subst(step["http"]);
    auto out = run_http_step(spec, session_.transport(), dl);
    session_.event(out.log);
    // A refused request whose id could be read is judged like one the transport sent (BASE-08).
    const json sent = spec.value("body", json());
    if (out.response["status"].get<int>() >= 400 && sent.is_object() && sent.contains("method") &&
        sent.contains("id") && (sent["id"].is_string() || sent["id"].is_number_integer()))
      session_.judge_refusal(out.response["status"].get<int>(), out.response["body"].get<std::string>());
    if (step.contains("end_if") &&
        filter_matches(subst(step["end_if"]), out.response, "the HTTP response against end_if")) {
      session_.event("http step: end_if holds, this check does not apply to the target");
      throw StopScenario{};
    }
    json matcher = step.contains("expect") ? subst(step["expect"]) : json{{"status", {{"$lt", 500}}}};
    match_or_fail(step, matcher, out.response, "the HTTP response");
  }

  // The retry of an input round (protocol 2026-07-28): the last request again, same method and
  // params, under a new id, carrying inputResponses (the step's own, or "answer_all": one answer
  // for every input request of the last answer) and the requestState of the answer it retries (or
  // the step's own requestState; null leaves it out). When the last answer asked for no input
  // there is nothing to retry: the step is skipped (foreach bodies retry only the tools that ask).
  void do_retry(const json& step, Deadline dl) {
    if (last_request_.is_null() || !last_response_.is_object())
      throw ScenarioBug("retry: no request step ran before it, so there is nothing to retry");
    json spec = subst(step["retry"]);
    if (spec.value("fresh", false)) {
      do_fresh_call(step, dl);
      return;
    }
    const json& answer = last_response_.contains("result") ? last_response_["result"] : json();
    if (!answer.is_object() || answer.value("resultType", json()) != protocol::result_type::kInputRequired) {
      session_.event("retry skipped: the last answer asked for no input");
      return;
    }
    json params = last_request_.contains("params") ? last_request_["params"] : json::object();
    if (!params.is_object()) throw ScenarioBug("retry: the request it retries has no params object");
    json responses = json::object();
    if (spec.contains("answer_all")) {
      if (answer.contains("inputRequests") && answer["inputRequests"].is_object())
        for (const auto& [key, request] : answer["inputRequests"].items()) responses[key] = spec["answer_all"];
    } else {
      responses = spec["inputResponses"];
    }
    params["inputResponses"] = responses;
    params.erase("requestState");
    if (spec.contains("requestState")) {
      if (!spec["requestState"].is_null()) params["requestState"] = spec["requestState"];
    } else if (answer.contains("requestState")) {
      params["requestState"] = answer["requestState"];
    }
    ++rounds_retried_;
    request_and_match(step, {{"method", last_request_["method"]}, {"params", params}}, dl);
  }

  // "skip_unless_retried": REASON. A scenario about input rounds has nothing to judge when no
  // request of the target asked for input: it ends SKIP with REASON rather than PASS by default.
  // A finding already made (a monitor's, or a failed step's) stands: the scenario then ends as usual.
  void do_skip_unless_retried(const json& step) {
    if (rounds_retried_ > 0 || !r_.findings.empty()) return;
    skip_reason_ = step["skip_unless_retried"].get<std::string>();
    throw StopScenario{};
  }

  // "retry": {"fresh": true}: after an answered round, the round's request once more as first
  // sent (no inputResponses, no requestState), under a new id: a stateless server cannot know the
  // earlier round. Skipped when no round was answered since the last request step.
  void do_fresh_call(const json& step, Deadline dl) {
    json params = last_request_.contains("params") ? last_request_["params"] : json::object();
    if (!params.is_object() || !params.contains("inputResponses")) {
      session_.event("fresh call skipped: no input round was answered since the last request");
      return;
    }
    params.erase("inputResponses");
    params.erase("requestState");
    request_and_match(step, {{"method", last_request_["method"]}, {"params", params}}, dl);
  }

  void do_list(const json& step, Deadline dl) {
    std::string method = step["list"];
    const char* key = items_key(method);
    json all = json::array();
    json cursor = nullptr;
    std::set<std::string> seen_cursors;
    for (int page = 0; page < 100; ++page) {
      json id = session_.next_request_id();
      json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
      if (!cursor.is_null()) msg["params"] = {{"cursor", cursor}};
      session_.send(msg, false, dl);
      auto k = protocol::id_key(id);
      auto got = session_.take(
          [&](const InboundMessage& m) { return !m.json.contains("method") && m.kind.id && protocol::id_key(*m.kind.id) == k; },
          dl);
      if (!got) {
        fail(step, fmt::format("no response to {} (page {}) within {} ms{}", method, page + 1, step_wait_ms(step), gone_note()),
             "", waiting_summary(), "", alive_req());
        return;
      }
      const json& resp = got->json;
      if (!resp.contains("result") || !resp["result"].is_object() || !resp["result"].contains(key) ||
          !resp["result"][key].is_array()) {
        fail(step, fmt::format("{} (page {}) did not return a result with a \"{}\" array", method, page + 1, key), "",
             pretty(resp));
        return;
      }
      for (const auto& item : resp["result"][key]) all.push_back(item);
      const json& r = resp["result"];
      if (!r.contains("nextCursor") || r["nextCursor"].is_null()) break;
      if (!r["nextCursor"].is_string()) {
        fail(step, method + " returned a nextCursor that is not a string", "",
             pretty(resp));
        return;
      }
      cursor = r["nextCursor"];
      if (!seen_cursors.insert(cursor.get<std::string>()).second) {
        fail(step, method + " returned the same nextCursor twice: the pagination never ends", "", pretty(resp));
        return;
      }
    }
    vars_[step["as"].get<std::string>()] = all;
  }

  bool callable(const json& tool) const {
    if (cfg_.call_tools == CallTools::All) return true;
    if (cfg_.call_tools == CallTools::None) return false;
    return tool.is_object() && tool.contains("annotations") && tool["annotations"].is_object() &&
           tool["annotations"].value("readOnlyHint", false) == true;
  }

  void do_foreach(const json& step, int index) {
    json items = subst(json(step["foreach"].get<std::string>()));
    if (!items.is_array()) throw ScenarioBug("foreach over " + step["foreach"].dump() + ", which is not an array");
    std::string as = step["as"];
    json where = step.contains("where") ? subst(step["where"]) : json(nullptr);
    std::size_t limit = step.value("limit", 50);
    bool only_callable = step.value("callable", false);
    json saved = vars_.contains(as) ? vars_[as] : json(nullptr);
    // Each item's label starts from the foreach's own, not from the last step of the item before.
    const std::string outer_label = current_label_;
    std::size_t done = 0;
    for (std::size_t i = 0; i < items.size() && done < limit; ++i) {
      const json& item = items[i];
      if (!where.is_null() && !filter_matches(where, item, "a foreach item against its where")) continue;
      if (only_callable && !callable(item)) continue;
      vars_[as] = item;
      std::string name = item.is_object() && item.contains("name") && item["name"].is_string()
                             ? item["name"].get<std::string>()
                             : item.is_object() && item.contains("uri") && item["uri"].is_string()
                                   ? item["uri"].get<std::string>()
                                   : std::to_string(i);
      run_steps(step["steps"], index, (outer_label.empty() ? "" : outer_label + ", ") + as + " " + name);
      ++done;
    }
    if (saved.is_null()) vars_.erase(as);
    else vars_[as] = saved;
    session_.event(fmt::format("foreach {}: {} of {} items", as, done, items.size()));
  }

  void do_expect_exit(const json& step, Deadline dl) {
    auto st = session_.wait_exit(dl);
    if (!st) {
      fail(step, fmt::format("the target did not exit within {} ms", step_wait_ms(step)));
      return;
    }
    if (step["expect_exit"].contains("code")) {
      json code = st->signal ? json(std::string("SIG") + (sigabbrev_np(st->signal) ? sigabbrev_np(st->signal) : "?"))
                             : json(st->code);
      match_or_fail(step, subst(step["expect_exit"]["code"]), code, "the exit status");
    }
  }

  void do_run(const json& step, Deadline dl) {
    std::string cmd;
    for (const auto& a : subst(step["run"])) {
      std::string arg = a.get<std::string>(), q = "'";
      for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      cmd += (cmd.empty() ? "" : " ") + q + "'";
    }
    transport::ChildProcess p;
    transport::SpawnOptions o;
    o.command = cmd;
    o.workdir = workdir_ ? workdir_->path() : "";
    o.env = s_.env;
    p.spawn(o);
    p.close_stdin();
    session_.event("run: " + cmd);
    std::string output;
    char buf[4096];
    while (!p.poll_exit() && !dl.passed()) {
      for (int fd : {p.stdout_fd(), p.stderr_fd()}) {
        if (fd < 0) continue;
        ssize_t n;
        while ((n = ::read(fd, buf, sizeof buf)) > 0 && output.size() < 65536) output.append(buf, static_cast<size_t>(n));
      }
      struct timespec ts{0, 5'000'000};
      nanosleep(&ts, nullptr);
    }
    auto st = p.poll_exit();
    if (!output.empty()) session_.event("run output: " + output);
    if (!st) {
      p.terminate(100);
      fail(step, "the command did not finish in time: " + cmd);
      return;
    }
    int want = step.value("expect_code", 0);
    if (st->signal || st->code != want)
      fail(step, "the command " + cmd + " ended with " + st->text(),
           "exit code " + std::to_string(want), output);
  }

  void do_file(const json& step) {
    namespace fs = std::filesystem;
    fs::path base = workdir_ ? fs::path(workdir_->path()) : fs::current_path();
    fs::path path = base / subst(step["file"]).get<std::string>();
    std::error_code ec;
    bool exists = fs::exists(path, ec);
    bool want_exists = step.value("exists", true);
    if (exists != want_exists) {
      fail(step, path.string() + (want_exists ? " does not exist" : " exists but must not"));
      return;
    }
    if (!exists) return;
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    if (step.contains("text")) match_or_fail(step, subst(step["text"]), json(text), "the text of " + path.string());
    if (step.contains("json")) {
      json doc;
      try {
        doc = json::parse(text);
      } catch (const json::exception& e) {
        fail(step, path.string() + " is not JSON: " + e.what());
        return;
      }
      match_or_fail(step, subst(step["json"]), doc, "the JSON in " + path.string());
    }
  }

  void check_still_alive() {
    if (exit_expected_ || !s_.monitor_on("alive")) return;
    session_.wait_until(Deadline::after_ms(0));
    if (session_.target_gone())
      session_.add_finding({{"MCPSPEC-ALIVE"},
                            Level::Must,
                            "[alive] " + session_.gone_reason() + " during the scenario, without being asked to",
                            -1, "", "", ""});
  }

  Session session_;
  int rounds_retried_ = 0;  // retry steps that answered an input round (skip_unless_retried)
};

}  // namespace

ScenarioResult run_scenario(const Scenario& s, const RunConfig& cfg) {
  if (cfg.role == Role::Client) return run_client_scenario(s, cfg);
  return run_with_outcome(s, cfg, {Role::Server, "proposes", "target"}, std::nullopt, [&](ScenarioResult& r) {
    Execution ex(s, cfg, r);
    ex.run();
    return ExecutionEnd{ex.skip_reason(), std::nullopt};
  });
}

}  // namespace mcpspec::scenario
