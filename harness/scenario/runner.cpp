#include "harness/scenario/runner.hpp"

#include "harness/scenario/http_steps.hpp"
#include "harness/scenario/client_runner.hpp"
#include "harness/scenario/matcher.hpp"
#include "harness/scenario/requirements.hpp"
#include "harness/scenario/scenario_outcome.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/scenario/session.hpp"
#include "harness/scenario/substitute.hpp"
#include "harness/scenario/workdir.hpp"
#include "harness/util/json_text.hpp"
#include "harness/transport/child_process.hpp"
#include "harness/transport/http/streamable_http_transport.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <string.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace mcpspec::scenario {

using nlohmann::json;

namespace {

// A step failed: the scenario ends there (its verdict comes from the findings' levels).
struct StopScenario {};

const char* items_key(const std::string& method) {
  if (method == "tools/list") return "tools";
  if (method == "resources/list") return "resources";
  if (method == "resources/templates/list") return "resourceTemplates";
  return "prompts";
}

// What part of a matcher decides which inbound message an expect takes (docs/scenario-format.md).
std::function<bool(const InboundMessage&)> selector_for(const json& matcher) {
  if (matcher.is_object() && matcher.contains("id")) {
    const json& id = matcher["id"];
    bool plain = !(id.is_object());
    if (plain)
      return [id](const InboundMessage& m) {
        return m.json.is_object() && m.json.contains("id") && m.json["id"] == id && m.json["id"].type() == id.type() &&
               !m.json.contains("method");
      };
  }
  if (matcher.is_object() && matcher.contains("method") && matcher["method"].is_string()) {
    std::string method = matcher["method"];
    return [method](const InboundMessage& m) { return m.kind.method == method; };
  }
  return [](const InboundMessage&) { return true; };
}

class Execution {
 public:
  Execution(const Scenario& s, const RunConfig& cfg, ScenarioResult& r)
      : s_(s), cfg_(cfg), r_(r), started_(Clock::now()),
        session_(s, SessionConfig{cfg.proposed_version, cfg.schemas, cfg.catalog}, r, started_),
        scenario_deadline_(scenario_deadline(s, cfg)) {}

  void run() {
    vars_ = {{"protocol", cfg_.proposed_version},
             {"negotiated", nullptr},
             {"mcpspec", {{"version", MCPSPEC_VERSION}}},
             {"env", environment_object()},
             {"workdir", ""},
             {"server_capabilities", nullptr}};
    if (!s_.workdir_from.empty()) {
      workdir_ = std::make_unique<Workdir>(s_.workdir_from);
      vars_["workdir"] = workdir_->path();
    }
    start_target();
    try {
      if (!s_.fixture_steps.empty()) {
        run_steps(s_.fixture_steps, -1, "fixture " + s_.fixture);
        if (has_must_failure()) return;
        r_.negotiated = session_.negotiated();
        vars_["negotiated"] = session_.negotiated().empty() ? json(nullptr) : json(session_.negotiated());
        vars_["server_capabilities"] = session_.server_capabilities();
        if (auto why = gated_after_handshake()) {
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

  std::optional<std::string> skip_reason() const { return skip_reason_; }

 private:
  bool has_must_failure() const {
    for (const auto& f : r_.findings)
      if (f.level == Level::Must) return true;
    return false;
  }

  void start_target() {
    auto t = cfg_.target.make(workdir_ ? workdir_->path() : std::string(), s_.env);
    // The one transport option of the server role; other transports have no GET stream.
    if (auto* h = dynamic_cast<transport::http::StreamableHttpTransport*>(t.get());
        h && s_.transport_options.contains("open_get_stream"))
      h->set_open_get_stream(s_.transport_options["open_get_stream"].get<bool>());
    session_.attach(std::move(t));
  }

  std::optional<std::string> gated_after_handshake() {
    for (const auto& cap : s_.server_capabilities)
      if (!capability_declared(session_.server_capabilities(), cap))
        return "the server does not declare the " + cap + " capability";
    if (!session_.negotiated().empty() && !s_.protocol.contains(session_.negotiated()))
      return "the server negotiated " + session_.negotiated() + ", outside this scenario's range " + s_.protocol.text();
    return std::nullopt;
  }

  Deadline step_deadline(const json& step) const {
    return Deadline::after_ms(step_wait_ms(step)).earliest(scenario_deadline_);
  }
  int step_wait_ms(const json& step) const {
    int ms = step.contains("within_ms") ? step["within_ms"].get<int>() : s_.timeout_ms.value_or(cfg_.timeout_ms);
    // A target that has not said anything yet may still be starting: start-up time is not
    // response time, so the first wait gets the (longer) start-up allowance.
    if (!session_.heard_from_target()) ms = std::max(ms, cfg_.startup_timeout_ms);
    return ms;
  }

  void fail(const json& step, int index, const std::string& label, std::string message, std::string expected = "",
            std::string received = "", std::string diff = "", std::vector<std::string> extra_reqs = {}) {
    Finding f;
    f.requirements = step.contains("requirements") ? step["requirements"].get<std::vector<std::string>>()
                                                    : s_.requirements;
    for (auto& e : extra_reqs)
      if (std::find(f.requirements.begin(), f.requirements.end(), e) == f.requirements.end())
        f.requirements.push_back(e);
    f.level = step.contains("level") ? parse_level(step["level"]) : s_.level;
    if (step.contains("note")) message += " (" + step["note"].get<std::string>() + ")";
    if (!label.empty()) message = label + ": " + message;
    f.message = std::move(message);
    f.step = index;
    f.expected = std::move(expected);
    f.received = std::move(received);
    f.diff = std::move(diff);
    session_.add_finding(std::move(f));
    // Later steps build on this one (captures, state): going on would only report follow-on noise.
    throw StopScenario{};
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

  std::string gone_note() const {
    return session_.target_gone() ? "; " + session_.gone_reason() : std::string();
  }

  // "within 5000 ms", or what ended the wait before that (a transport that proved nothing more
  // could come: the failure is then certain, not a guess about a slow target).
  std::string waited(const json& step) const {
    if (!session_.ended_early().empty()) return "(" + session_.ended_early() + ")";
    return fmt::format("within {} ms", step_wait_ms(step));
  }

  static Awaiting awaiting_for(const json& matcher) {
    return selects_only_responses(matcher) ? Awaiting::Answers : Awaiting::Anything;
  }

  std::vector<std::string> alive_req() const {
    return session_.target_gone() && !exit_expected_ ? std::vector<std::string>{"MCPSPEC-ALIVE"}
                                                     : std::vector<std::string>{};
  }

  bool condition_holds(const json& cond) const {
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

  json subst(const json& v) const {
    try {
      return substitute(v, vars_);
    } catch (const SubstitutionError& e) {
      throw ScenarioBug(e.what());
    }
  }

  void apply_captures(const json& step, const json& message, const MatchResult& m) {
    for (const auto& [name, value] : m.captured.items()) vars_[name] = value;
    if (!step.contains("capture")) return;
    for (const auto& [name, ptr] : step["capture"].items()) {
      try {
        json::json_pointer jp(ptr.get<std::string>());
        if (message.contains(jp)) vars_[name] = message.at(jp);
        else
          fail(step, current_index_, current_label_, "capture \"" + name + "\": the message has nothing at " +
                                                         ptr.get<std::string>(), "", compact(message));
      } catch (const json::exception& e) {
        throw ScenarioBug("capture \"" + name + "\": bad JSON pointer " + ptr.dump() + ": " + e.what());
      }
    }
  }

  void match_or_fail(const json& step, const json& matcher, const json& message, const std::string& what) {
    auto m = decided_match(matcher, message, what);
    if (!m.ok) {
      fail(step, current_index_, current_label_, what + " does not match the expectation", pretty(matcher),
           pretty(message), mismatch_text(m));
      return;
    }
    apply_captures(step, message, m);
  }

  void run_steps(const json& steps, int base_index, const std::string& label) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
      int index = base_index >= 0 ? (label.empty() ? static_cast<int>(i) : base_index) : -1;
      std::string l = label.empty() ? "" : label + ", step " + std::to_string(i);
      run_step(steps[i], index, l);
    }
  }

  void run_step(const json& step, int index, const std::string& label) {
    current_index_ = index;
    current_label_ = label;
    if (step.contains("if") && !condition_holds(step["if"])) {
      session_.event(fmt::format("step {} skipped: its condition does not hold", index));
      return;
    }
    if (step.contains("label")) current_label_ = label.empty() ? step["label"].get<std::string>() : label;
    if (scenario_deadline_.passed()) {
      fail(step, index, current_label_, "the scenario ran out of time before this step");
      return;
    }
    Deadline dl = step_deadline(step);
    try {
      dispatch(step, index, dl);
    } catch (const transport::TransportError& e) {
      fail(step, index, current_label_, std::string("could not talk to the target: ") + e.what() + gone_note(), "", "",
           "", alive_req());
    }
  }

  void dispatch(const json& step, int index, Deadline dl) {
    if (step.contains("http")) {
      do_http(step, dl);
    } else if (step.contains("send")) {
      session_.send(subst(step["send"]), step.value("invalid", false), dl);
    } else if (step.contains("send_raw")) {
      std::string bytes = subst(step["send_raw"]).get<std::string>();
      if (step.value("newline", true)) bytes += "\n";
      session_.send_raw(bytes, dl);
    } else if (step.contains("request")) {
      do_request(step, dl);
    } else if (step.contains("notify")) {
      json body = subst(step["notify"]);
      json msg = {{"jsonrpc", "2.0"}, {"method", body["method"]}};
      if (body.contains("params")) msg["params"] = body["params"];
      session_.send(msg, step.value("invalid", false), dl);
    } else if (step.contains("expect")) {
      do_expect(step, dl);
    } else if (step.contains("expect_unordered")) {
      do_expect_unordered(step, dl);
    } else if (step.contains("expect_silence_ms")) {
      do_silence(step);
    } else if (step.contains("expect_no")) {
      do_expect_no(step);
    } else if (step.contains("collect")) {
      json matcher = subst(step["collect"]);
      session_.wait_until(Deadline::after_ms(0));
      json out = json::array();
      std::vector<std::size_t> taken;
      for (const auto& m : session_.inbox())
        if (filter_matches(matcher, m.json, "a message for collect")) {
          out.push_back(m.json);
          taken.push_back(m.seq);
        }
      for (auto seq : taken) session_.consume(seq);
      vars_[step["as"].get<std::string>()] = out;
    } else if (step.contains("check")) {
      json value = subst(step["check"]);
      match_or_fail(step, subst(step["matches"]), value, "the checked value");
    } else if (step.contains("sleep_ms")) {
      session_.wait_until(Deadline::after_ms(step["sleep_ms"].get<int>()).earliest(scenario_deadline_));
    } else if (step.contains("await_answers_ms")) {
      // For answers that cannot be waited for by id (to unreadable input): the whole window, or
      // until the transport proves no answer can still come.
      session_.wait_for(Deadline::after_ms(step["await_answers_ms"].get<int>()).earliest(scenario_deadline_),
                        Awaiting::Answers);
    } else if (step.contains("list")) {
      do_list(step, dl);
    } else if (step.contains("foreach")) {
      do_foreach(step, index);
    } else if (step.contains("close_stdin")) {
      exit_expected_ = true;
      session_.transport()->close_input();
      session_.event("closed the target's stdin");
    } else if (step.contains("expect_exit")) {
      exit_expected_ = true;
      do_expect_exit(step, dl);
    } else if (step.contains("signal")) {
      exit_expected_ = true;
      session_.transport()->signal(signal_number(step["signal"]));
      session_.event("sent SIG" + step["signal"].get<std::string>() + " to the target's process group");
    } else if (step.contains("kill")) {
      exit_expected_ = true;
      session_.transport()->signal(SIGKILL);
      session_.event("sent SIGKILL to the target's process group");
    } else if (step.contains("restart")) {
      exit_expected_ = false;
      start_target();
      if (!s_.fixture_steps.empty()) run_steps(s_.fixture_steps, -1, "fixture " + s_.fixture + " (after restart)");
    } else if (step.contains("run")) {
      do_run(step, dl);
    } else if (step.contains("file")) {
      do_file(step);
    }
  }

  // One exact HTTP request (http_steps.hpp); "end_if" ends the scenario (passing) when its matcher
  // holds, for checks that only apply to some servers (no session ids, DELETE -> 405).
  void do_http(const json& step, Deadline dl) {
    auto out = run_http_step(subst(step["http"]), session_.transport(), dl);
    session_.event(out.log);
    if (step.contains("end_if") &&
        filter_matches(subst(step["end_if"]), out.response, "the HTTP response against end_if")) {
      session_.event("http step: end_if holds, this check does not apply to the target");
      throw StopScenario{};
    }
    json matcher = step.contains("expect") ? subst(step["expect"]) : json{{"status", {{"$lt", 500}}}};
    match_or_fail(step, matcher, out.response, "the HTTP response");
  }

  void do_request(const json& step, Deadline dl) {
    json body = subst(step["request"]);
    json id = body.contains("id") ? body["id"] : session_.next_request_id();
    json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", body["method"]}};
    if (body.contains("params")) msg["params"] = body["params"];
    session_.send(msg, step.value("invalid", false), dl);
    auto key = protocol::id_key(id);
    auto got = session_.take(
        [&](const InboundMessage& m) {
          return !m.json.contains("method") && m.kind.id && protocol::id_key(*m.kind.id) == key;
        },
        dl, Awaiting::Answers);
    std::string method = body["method"].get<std::string>();
    if (!got) {
      fail(step, current_index_, current_label_,
           fmt::format("no response to {} (id {}) {}{}", method, compact(id), waited(step), gone_note()),
           "a response with id " + compact(id), waiting_summary(), "", alive_req());
      return;
    }
    json matcher = step.contains("expect") ? subst(step["expect"]) : json{{"result", {{"$type", "object"}}}};
    match_or_fail(step, matcher, got->json, "the response to " + method);
  }

  void do_expect(const json& step, Deadline dl) {
    json matcher = subst(step["expect"]);
    auto got = session_.take(selector_for(matcher), dl, awaiting_for(matcher));
    if (!got) {
      fail(step, current_index_, current_label_,
           fmt::format("the expected message did not arrive {}{}", waited(step), gone_note()),
           pretty(matcher), waiting_summary(), "", alive_req());
      return;
    }
    match_or_fail(step, matcher, got->json, "the message");
  }

  void do_expect_unordered(const json& step, Deadline dl) {
    std::vector<json> pending;
    for (const auto& m : step["expect_unordered"]) pending.push_back(subst(m));
    Awaiting awaiting = Awaiting::Answers;
    for (const auto& p : pending)
      if (awaiting_for(p) == Awaiting::Anything) awaiting = Awaiting::Anything;
    while (!pending.empty()) {
      std::size_t which = 0;
      auto got = session_.take(
          [&](const InboundMessage& m) {
            auto picked = pick_expectation(pending, m.json);
            if (picked) which = *picked;
            return picked.has_value();
          },
          dl, awaiting);
      if (!got) {
        std::string missing;
        for (const auto& p : pending) missing += pretty(p) + "\n";
        fail(step, current_index_, current_label_,
             fmt::format("{} expected message(s) did not arrive {}{}", pending.size(), waited(step), gone_note()),
             missing, waiting_summary(), "", alive_req());
        return;
      }
      match_or_fail(step, pending[which], got->json, "the message");
      pending.erase(pending.begin() + static_cast<long>(which));
    }
  }

  // The window ends early once no answer can arrive (or, when notifications are not allowed
  // either, no message at all); whatever arrived until then is judged.
  void do_silence(const json& step) {
    std::size_t since = session_.last_send_seq();
    bool allow_notes = step.value("allow_notifications", true);
    session_.wait_for(Deadline::after_ms(step["expect_silence_ms"].get<int>()).earliest(scenario_deadline_),
                      allow_notes ? Awaiting::Answers : Awaiting::Anything);
    std::string bad;
    for (const auto& m : session_.inbox()) {
      if (m.seq <= since) continue;
      if (allow_notes && m.kind.kind == protocol::Kind::Notification) continue;
      bad += compact(m.json).substr(0, 400) + "\n";
    }
    if (!bad.empty())
      fail(step, current_index_, current_label_,
           fmt::format("expected silence for {} ms, but the target sent something", step["expect_silence_ms"].get<int>()),
           allow_notes ? "no responses or requests" : "no messages at all", bad);
  }

  void do_expect_no(const json& step) {
    json matcher = subst(step["expect_no"]);
    session_.wait_for(Deadline::after_ms(step["for_ms"].get<int>()).earliest(scenario_deadline_), awaiting_for(matcher));
    for (const auto& m : session_.inbox())
      if (filter_matches(matcher, m.json, "a message against expect_no"))
        fail(step, current_index_, current_label_, "a message arrived that must not", "nothing matching " + compact(matcher),
             pretty(m.json));
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
        fail(step, current_index_, current_label_,
             fmt::format("no response to {} (page {}) within {} ms{}", method, page + 1, step_wait_ms(step), gone_note()),
             "", waiting_summary(), "", alive_req());
        return;
      }
      const json& resp = got->json;
      if (!resp.contains("result") || !resp["result"].is_object() || !resp["result"].contains(key) ||
          !resp["result"][key].is_array()) {
        fail(step, current_index_, current_label_,
             fmt::format("{} (page {}) did not return a result with a \"{}\" array", method, page + 1, key), "",
             pretty(resp));
        return;
      }
      for (const auto& item : resp["result"][key]) all.push_back(item);
      const json& r = resp["result"];
      if (!r.contains("nextCursor") || r["nextCursor"].is_null()) break;
      if (!r["nextCursor"].is_string()) {
        fail(step, current_index_, current_label_, method + " returned a nextCursor that is not a string", "",
             pretty(resp));
        return;
      }
      cursor = r["nextCursor"];
      if (!seen_cursors.insert(cursor.get<std::string>()).second) {
        fail(step, current_index_, current_label_,
             method + " returned the same nextCursor twice: the pagination never ends", "", pretty(resp));
        return;
      }
    }
    vars_[step["as"].get<std::string>()] = all;
  }

  bool callable(const json& tool) const {
    if (cfg_.call_tools == "all") return true;
    if (cfg_.call_tools == "none") return false;
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
      run_steps(step["steps"], index, (current_label_.empty() ? "" : current_label_ + ", ") + as + " " + name);
      ++done;
    }
    if (saved.is_null()) vars_.erase(as);
    else vars_[as] = saved;
    session_.event(fmt::format("foreach {}: {} of {} items", as, done, items.size()));
  }

  void do_expect_exit(const json& step, Deadline dl) {
    auto st = session_.wait_exit(dl);
    if (!st) {
      fail(step, current_index_, current_label_, fmt::format("the target did not exit within {} ms", step_wait_ms(step)));
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
      fail(step, current_index_, current_label_, "the command did not finish in time: " + cmd);
      return;
    }
    int want = step.value("expect_code", 0);
    if (st->signal || st->code != want)
      fail(step, current_index_, current_label_, "the command " + cmd + " ended with " + st->text(),
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
      fail(step, current_index_, current_label_,
           path.string() + (want_exists ? " does not exist" : " exists but must not"));
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
        fail(step, current_index_, current_label_, path.string() + " is not JSON: " + e.what());
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

  const Scenario& s_;
  const RunConfig& cfg_;
  ScenarioResult& r_;
  Clock::time_point started_;
  std::unique_ptr<Workdir> workdir_;  // declared before session_: destroyed after the target stops
  Session session_;
  Deadline scenario_deadline_;
  json vars_;
  bool exit_expected_ = false;
  int current_index_ = -1;
  std::string current_label_;
  std::optional<std::string> skip_reason_;
};

}  // namespace

ScenarioResult run_scenario(const Scenario& s, const RunConfig& cfg) {
  if (cfg.role == "client") return run_client_scenario(s, cfg);
  return run_with_outcome(s, cfg, {"server", s.role, "proposes", "target"}, std::nullopt, [&](ScenarioResult& r) {
    Execution ex(s, cfg, r);
    ex.run();
    return ExecutionEnd{ex.skip_reason(), std::nullopt};
  });
}

}  // namespace mcpspec::scenario
