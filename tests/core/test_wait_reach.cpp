// Waits that end once the transport proves nothing more can arrive (transport::Reach): the session
// drains what was queued first, ends only the waits whose kind is ruled out, and the runner says
// why a wait ended in its failure message. A scripted transport plays the target; a last case runs
// the real Streamable HTTP transport against our HTTP test front. No test asserts a duration: a
// wait that wrongly runs to its deadline shows in the wire log ("wait ended early" missing).
#include "harness/scenario/step_support.hpp"
#include "harness/transport/http/streamable_http_transport.hpp"
#include "tests/core/core_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <deque>
#include <mutex>
#include <string>

using namespace mcpspec;
using nlohmann::json;
using transport::Event;
using transport::Reach;

namespace {

// Answers what the script says and reports the reach the test sets: a target whose transport can
// prove silence. Every sent request id is echoed only when `answer` is set.
class ReachTransport : public transport::Transport {
 public:
  ReachTransport(Reach reach, bool answer) : reach_(reach), answer_(answer) {}
  std::string name() const override { return "reach-test"; }
  void start() override {}
  void send(const std::string& frame, Deadline) override {
    json msg = json::parse(frame);
    if (answer_ && msg.contains("id") && msg.contains("method"))
      queue_.push_back(Event{Event::Type::Frame, json{{"jsonrpc", "2.0"}, {"id", msg["id"]}, {"result", json::object()}}.dump(), {}});
    queue_.push_back(Event{Event::Type::Settled, "", {}});
  }
  void send_raw(const std::string&, Deadline) override { queue_.push_back(Event{Event::Type::Settled, "", {}}); }
  Event receive(Deadline deadline) override {
    if (!queue_.empty()) {
      Event e = std::move(queue_.front());
      queue_.pop_front();
      return e;
    }
    // Nothing scripted: behave like a quiet target until the deadline (bounded by the step's).
    while (!deadline.passed()) {
      struct timespec ts{0, 2'000'000};
      nanosleep(&ts, nullptr);
    }
    return Event{};
  }
  void close_input() override {}
  void signal(int) override {}
  std::optional<transport::ExitStatus> exit_status() override { return std::nullopt; }
  void stop() override {}
  std::string describe() const override { return "scripted target with a known reach"; }
  Reach reach() const override { return reach_; }

 private:
  Reach reach_;
  bool answer_;
  std::deque<Event> queue_;
};

ScenarioResult run_steps(const std::string& steps, Reach reach, bool answer) {
  coretest::TempDir dir;
  auto scenario = coretest::load_one(
      dir, coretest::scenario_json("core/wait/case", "BASE-06", steps, R"({"fixture": "none"})").dump());
  auto cfg = coretest::run_config("unused", "2025-11-25");
  cfg.timeout_ms = 400;
  cfg.startup_timeout_ms = 1;  // the first wait is not stretched for a slow start
  cfg.target.description = "reach test";
  cfg.target.make = [reach, answer](const std::string&, const std::map<std::string, std::string>&) {
    return std::make_unique<ReachTransport>(reach, answer);
  };
  return scenario::run_scenario(scenario, cfg);
}

bool wire_has(const ScenarioResult& r, const std::string& part) {
  for (const auto& w : r.wire)
    if (w.text.find(part) != std::string::npos) return true;
  return false;
}

std::string messages_of(const ScenarioResult& r) {
  std::string out = r.reason + "\n";
  for (const auto& f : r.findings) out += f.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("wait: a request nobody can answer any more fails at once, saying why", "[core][wait]") {
  auto r = run_steps(R"([{"request": {"method": "ping"}, "within_ms": 60000}])", Reach::NoAnswers, false);
  INFO(messages_of(r));
  CHECK(r.verdict == Verdict::Fail);
  CHECK(messages_of(r).find("no answer can still arrive") != std::string::npos);
  CHECK(wire_has(r, "wait ended early"));
}

TEST_CASE("wait: an answer queued before the transport narrowed is still taken", "[core][wait]") {
  auto r = run_steps(R"([{"request": {"method": "ping"}, "expect": {"result": {}}, "within_ms": 60000}])",
                     Reach::NoAnswers, true);
  INFO(messages_of(r));
  CHECK(r.verdict == Verdict::Pass);
}

TEST_CASE("wait: transports that cannot prove anything wait to the deadline", "[core][wait]") {
  auto r = run_steps(R"([{"request": {"method": "ping"}, "within_ms": 300}])", Reach::Anything, false);
  CHECK(r.verdict == Verdict::Fail);
  CHECK(messages_of(r).find("within 300 ms") != std::string::npos);
  CHECK_FALSE(wire_has(r, "wait ended early"));
}

TEST_CASE("wait: silence and answer windows end once no answer can come", "[core][wait]") {
  auto r = run_steps(R"([
    {"notify": {"method": "notifications/initialized"}},
    {"expect_silence_ms": 60000},
    {"send_raw": "not json"},
    {"await_answers_ms": 60000},
    {"expect_no": {"id": 7, "result": {"$any": true}}, "for_ms": 60000}
  ])",
                     Reach::NoAnswers, false);
  INFO(messages_of(r));
  CHECK(r.verdict == Verdict::Pass);
  CHECK(wire_has(r, "wait ended early"));
}

TEST_CASE("wait: waits for notifications or requests need proof that nothing at all can come", "[core][wait]") {
  // The GET stream may still carry server requests and notifications: the window runs out.
  auto open_get = run_steps(R"([
    {"expect_no": {"method": "notifications/message"}, "for_ms": 300},
    {"expect": {"method": "notifications/message"}, "within_ms": 300}
  ])",
                            Reach::NoAnswers, false);
  CHECK_FALSE(wire_has(open_get, "wait ended early"));
  CHECK(messages_of(open_get).find("within 300 ms") != std::string::npos);
  // No stream open at all: nothing can come, the expectation fails at once with that reason.
  auto closed = run_steps(R"([{"expect": {"method": "notifications/message"}, "within_ms": 60000}])", Reach::Nothing,
                          false);
  CHECK(closed.verdict == Verdict::Fail);
  CHECK(messages_of(closed).find("no message can still arrive") != std::string::npos);
  // A silence window that forbids notifications too is such a wait.
  auto strict = run_steps(R"([{"expect_silence_ms": 300, "allow_notifications": false}])", Reach::NoAnswers, false);
  CHECK(strict.verdict == Verdict::Pass);
  CHECK_FALSE(wire_has(strict, "wait ended early"));
}

TEST_CASE("wait: which matchers select only responses", "[core][wait]") {
  using scenario::selects_only_responses;
  CHECK(selects_only_responses(json::parse(R"({"id": 1, "result": {}})")));
  CHECK(selects_only_responses(json::parse(R"({"error": {"code": -32600}})")));
  CHECK(selects_only_responses(json::parse(R"({"id": "x", "method": {"$absent": true}})")));
  CHECK_FALSE(selects_only_responses(json::parse(R"({"id": "x"})")));  // a server request has an id too
  CHECK_FALSE(selects_only_responses(json::parse(R"({"method": "notifications/message"})")));
  CHECK_FALSE(selects_only_responses(json::parse(R"({"method": {"$any": true}, "result": {}})")));
  CHECK_FALSE(selects_only_responses(json::parse(R"([{"result": {}}])")));
}

TEST_CASE("wait: Streamable HTTP narrows its reach as its streams end", "[core][wait][http]") {
  for (bool get : {false, true}) {
    INFO((get ? "with" : "without") << " a GET stream");
    transport::http::HttpTransportOptions opt;
    opt.url = transport::http::parse_url("http://127.0.0.1/mcp");
    transport::SpawnOptions spawn;
    spawn.command = "'" + std::string(MCPSPEC_BINARY_DIR) + "/mcpspec-httpserver' --backend '" +
                    std::string(MCPSPEC_BINARY_DIR) + "/mcpspec-testserver'" + (get ? "" : " --no-get");
    opt.spawn = spawn;
    transport::http::StreamableHttpTransport t(opt);
    t.start();
    CHECK(t.reach() == Reach::Nothing);  // nothing sent, nothing can come
    auto settle = [&] {
      // Reads until the transport wakes its receiver with Settled (bounded).
      auto dl = Deadline::after_ms(20000);
      for (;;) {
        auto e = t.receive(dl);
        if (e.type == Event::Type::Settled || e.type == Event::Type::Timeout) return e.type;
      }
    };
    t.send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}}.dump(),
           Deadline::after_ms(5000));
    REQUIRE(settle() == Event::Type::Settled);
    CHECK(t.reach() == Reach::Nothing);
    t.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", Deadline::after_ms(5000));
    REQUIRE(settle() == Event::Type::Settled);
    if (get) {
      // The GET stream may carry server requests and notifications, never answers.
      CHECK(t.reach() == Reach::NoAnswers);
    } else {
      // 405 for GET: once that answer is read, nothing is open any more.
      auto dl = Deadline::after_ms(20000);
      while (t.reach() != Reach::Nothing && !dl.passed()) t.receive(Deadline::after_ms(50));
      CHECK(t.reach() == Reach::Nothing);
    }
    t.stop();
  }
}
