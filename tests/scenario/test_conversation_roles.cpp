// One conversation for both roles: the behaviours the server-role and client-role sessions used to
// do differently (the findings cap, inbox overflow, waits that end early, which message an id
// selects) are now the same, and each is tested in each role. Also the two monitor rules that both
// roles gained: an id reused after its request was answered (BASE-05) and a notification that needs
// a capability its sender did not declare (LC-15).
#include "harness/scenario/client_session.hpp"
#include "harness/scenario/message_selector.hpp"
#include "harness/scenario/session.hpp"
#include "harness/transport/client_carrier.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <ctime>
#include <deque>
#include <memory>
#include <string>

using namespace mcpspec;
using namespace mcpspec::scenario;
using nlohmann::json;

namespace {

// Delivers scripted frames, then nothing (sleeping briefly, so long waits do not spin). `reach`
// is what it claims can still arrive.
template <class Base>
class Scripted : public Base {
 public:
  explicit Scripted(std::deque<std::string> frames, transport::Reach reach = transport::Reach::Anything)
      : frames_(std::move(frames)), reach_(reach) {}
  std::string name() const override { return "scripted"; }
  void start() override {}
  void send(const std::string& frame, Deadline) override { sent.push_back(frame); }
  void send_raw(const std::string&, Deadline) override {}
  transport::Event receive(Deadline deadline) override {
    transport::Event e;
    if (frames_.empty()) {
      if (!deadline.passed()) {
        struct timespec ts{0, 2'000'000};
        nanosleep(&ts, nullptr);
      }
      return e;  // Timeout
    }
    e.type = transport::Event::Type::Frame;
    e.text = frames_.front();
    frames_.pop_front();
    return e;
  }
  void close_input() override {}
  void signal(int) override {}
  std::optional<transport::ExitStatus> exit_status() override { return std::nullopt; }
  void stop() override {}
  std::string describe() const override { return "scripted frames"; }
  transport::Reach reach() const override { return frames_.empty() ? reach_ : transport::Reach::Anything; }

  std::vector<std::string> sent;

 private:
  std::deque<std::string> frames_;
  transport::Reach reach_;
};

class ScriptedCarrier : public Scripted<transport::ClientCarrier> {
 public:
  using Scripted::Scripted;
  void crash_server() override {}
  bool connected() const override { return true; }
  int connections() const override { return 1; }
};

struct Roles {
  Scenario scenario;
  ScenarioResult result;
  SessionConfig config;
};

std::unique_ptr<Session> server_role(Roles& r, std::deque<std::string> frames,
                                     transport::Reach reach = transport::Reach::Anything) {
  auto s = std::make_unique<Session>(r.scenario, r.config, r.result, Clock::now());
  s->attach(std::make_unique<Scripted<transport::Transport>>(std::move(frames), reach));
  return s;
}

std::unique_ptr<ClientSession> client_role(Roles& r, std::deque<std::string> frames,
                                           transport::Reach reach = transport::Reach::Anything) {
  auto s = std::make_unique<ClientSession>(r.scenario, r.config, r.result, Clock::now());
  s->attach(std::make_unique<ScriptedCarrier>(std::move(frames), reach));
  return s;
}

// `n` responses, each with an id no request had: one distinct monitor finding each.
std::deque<std::string> unsolicited(int n) {
  std::deque<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(R"({"jsonrpc":"2.0","id":)" + std::to_string(1000 + i) + R"(,"result":{}})");
  return out;
}

std::deque<std::string> notifications(int n) {
  std::deque<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{}})");
  return out;
}

bool wire_has(const ScenarioResult& r, const std::string& text) {
  for (const auto& w : r.wire)
    if (w.text.find(text) != std::string::npos) return true;
  return false;
}

bool has_finding(const ScenarioResult& r, const std::string& requirement) {
  for (const auto& f : r.findings)
    for (const auto& q : f.requirements)
      if (q == requirement) return true;
  return false;
}

}  // namespace

TEST_CASE("conversation: past the findings cap one marker stands for the rest, in both roles", "[conversation]") {
  for (const char* role : {"server", "client"}) {
    CAPTURE(role);
    Roles r;
    r.config.max_findings = 10;
    if (std::string(role) == "server") server_role(r, unsolicited(30))->wait_until(Deadline::after_ms(300));
    else client_role(r, unsolicited(30))->wait_until(Deadline::after_ms(300));
    REQUIRE(r.result.findings.size() == 11);
    CHECK(r.result.findings.back().message == "further findings omitted");
  }
}

TEST_CASE("conversation: an inbox overflow is logged once, in both roles", "[conversation]") {
  for (const char* role : {"server", "client"}) {
    CAPTURE(role);
    Roles r;
    r.config.max_inbox = 5;
    std::size_t kept = 0;
    if (std::string(role) == "server") {
      auto s = server_role(r, notifications(12));
      s->wait_until(Deadline::after_ms(300));
      kept = s->inbox().size();
    } else {
      auto s = client_role(r, notifications(12));
      s->wait_until(Deadline::after_ms(300));
      kept = s->inbox().size();
    }
    CHECK(kept == 5);
    CHECK(wire_has(r.result, "more than 5 unconsumed messages: the oldest are dropped"));
  }
}

TEST_CASE("conversation: a wait for answers ends once the transport proves none can come, in both roles",
          "[conversation][wait]") {
  for (const char* role : {"server", "client"}) {
    CAPTURE(role);
    Roles r;
    auto want_id_7 = [](const InboundMessage& m) { return m.kind.id && *m.kind.id == json(7); };
    std::optional<InboundMessage> got;
    std::string why;
    // The deadline is far off: only the transport's proof can end this wait.
    if (std::string(role) == "server") {
      auto s = server_role(r, {}, transport::Reach::NoAnswers);
      got = s->take(want_id_7, Deadline::after_ms(120000), Awaiting::Answers);
      why = s->ended_early();
    } else {
      auto s = client_role(r, {}, transport::Reach::NoAnswers);
      got = s->take(want_id_7, Deadline::after_ms(120000), Awaiting::Answers);
      why = s->ended_early();
    }
    CHECK_FALSE(got);
    CHECK_THAT(why, Catch::Contains("no answer can still arrive"));
  }
}

TEST_CASE("conversation: once the target spreads a message over several lines, waits end at once, in both roles",
          "[conversation][wait]") {
  // Pretty-printed JSON: the answer is somewhere in these lines, but no line is a message.
  const std::deque<std::string> pretty = {"{", R"(  "jsonrpc": "2.0",)", R"(  "id": 7,)", R"(  "result": {})", "}"};
  for (const char* role : {"server", "client"}) {
    for (bool monitored : {true, false}) {
      CAPTURE(role, monitored);
      Roles r;
      if (!monitored) r.scenario.monitors["framing"] = false;  // a scenario testing this on purpose waits
      auto want_id_7 = [](const InboundMessage& m) { return m.kind.id && *m.kind.id == json(7); };
      std::optional<InboundMessage> got;
      std::string why;
      if (std::string(role) == "server") {
        auto s = server_role(r, pretty);
        got = s->take(want_id_7, Deadline::after_ms(monitored ? 120000 : 300), Awaiting::Answers);
        why = s->ended_early();
      } else {
        auto s = client_role(r, pretty);
        got = s->take(want_id_7, Deadline::after_ms(monitored ? 120000 : 300), Awaiting::Answers);
        why = s->ended_early();
      }
      CHECK_FALSE(got);
      if (monitored) {
        CHECK_THAT(why, Catch::Contains("over several lines"));
        CHECK(r.result.findings.size() >= 1);
      } else {
        CHECK(why.empty());  // it waited to its deadline: nothing ended it
      }
    }
  }
}

TEST_CASE("conversation: an expected id selects only a response with that id's type, in both roles",
          "[conversation][selector]") {
  for (const char* role : {"server", "client"}) {
    CAPTURE(role);
    Roles r;
    std::deque<std::string> frames = {R"({"jsonrpc":"2.0","id":"1","result":{}})"};
    auto select_1 = selector_for(json{{"id", 1}});
    auto select_str = selector_for(json{{"id", "1"}});
    std::optional<InboundMessage> by_number, by_string;
    if (std::string(role) == "server") {
      auto s = server_role(r, frames);
      by_number = s->take(select_1, Deadline::after_ms(200));
      by_string = s->take(select_str, Deadline::after_ms(200));
    } else {
      auto s = client_role(r, frames);
      by_number = s->take(select_1, Deadline::after_ms(200));
      by_string = s->take(select_str, Deadline::after_ms(200));
    }
    CHECK_FALSE(by_number);  // 1 and "1" are different ids
    REQUIRE(by_string);
    CHECK(by_string->json["id"] == "1");
  }
}

TEST_CASE("conversation: a server reusing a request id after it was answered breaks BASE-05", "[conversation][ids]") {
  Roles r;
  const std::string ping = R"({"jsonrpc":"2.0","id":"p","method":"ping"})";
  auto s = server_role(r, {ping});
  s->wait_until(Deadline::after_ms(100));
  auto* t = dynamic_cast<Scripted<transport::Transport>*>(s->transport());
  REQUIRE(t);
  REQUIRE(t->sent.size() == 1);  // the harness answered the first ping
  CHECK_FALSE(has_finding(r.result, "BASE-05"));
  Roles again;
  auto twice = server_role(again, {ping, ping});
  twice->wait_until(Deadline::after_ms(100));
  CHECK(has_finding(again.result, "BASE-05"));
}

TEST_CASE("conversation: a notification needing a capability its sender did not declare breaks LC-15",
          "[conversation][capabilities]") {
  const std::string init_result =
      R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},)"
      R"("serverInfo":{"name":"s","version":"1"}}})";
  const std::string list_changed = R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})";
  SECTION("server role: tools/list_changed from a server whose tools lack listChanged") {
    Roles r;
    r.config.proposed_version = "2025-11-25";
    auto s = server_role(r, {init_result, list_changed});
    s->send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}}, true,
            Deadline::after_ms(100));
    s->wait_until(Deadline::after_ms(200));
    CHECK(has_finding(r.result, "LC-15"));
  }
  SECTION("server role: the same notification is fine when listChanged is declared") {
    Roles r;
    r.config.proposed_version = "2025-11-25";
    std::string declared = init_result;
    declared.replace(declared.find(R"("tools":{})"), 10, R"("tools":{"listChanged":true})");
    auto s = server_role(r, {declared, list_changed});
    s->send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}}, true,
            Deadline::after_ms(100));
    s->wait_until(Deadline::after_ms(200));
    CHECK_FALSE(has_finding(r.result, "LC-15"));
  }
  SECTION("client role: roots/list_changed from a client that did not declare roots.listChanged") {
    for (const char* caps : {R"({})", R"({"roots":{"listChanged":true}})"}) {
      CAPTURE(caps);
      Roles r;
      r.config.proposed_version = "2025-11-25";
      auto s = client_role(r, {R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":)" +
                                   std::string(caps) + R"(,"clientInfo":{"name":"c","version":"1"}}})",
                               R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})"});
      s->wait_until(Deadline::after_ms(200));
      CHECK(has_finding(r.result, "LC-15") == (std::string(caps) == "{}"));
    }
  }
}
