// A WebSocket peer that closes with status 1007 after a text frame that is not UTF-8 does what
// RFC 6455 requires: the live fuzzer ends that session without calling it a crash. Any other close
// (1007 after valid text, or another status after invalid text) is still a crash finding.
// A scripted transport stands in for the server, so the test needs no network and no process.
#include "harness/fuzz/live_session.hpp"
#include "harness/protocol/schema_registry.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <functional>

using namespace mcpspec;
using namespace mcpspec::fuzz;
using nlohmann::json;

namespace {

constexpr const char* kVersion = "2025-11-25";

// Answers initialize and ping; closes with `close_code` when `closes(frame)` says so.
class ScriptedWebSocket : public transport::Transport {
 public:
  ScriptedWebSocket(std::function<bool(const std::string&)> closes, int close_code)
      : closes_(std::move(closes)), close_code_(close_code) {}
  std::string name() const override { return "ws"; }
  void start() override {}
  void send(const std::string& frame, Deadline) override {
    if (closed_) throw transport::TransportError("the WebSocket is not open");
    if (closes_(frame)) {
      closed_ = true;
      transport::Event e{transport::Event::Type::Closed, "the server sent a WebSocket close frame", {}};
      e.http_status = close_code_;
      events_.push_back(std::move(e));
      return;
    }
    json m = json::parse(frame, nullptr, false);
    if (m.is_discarded() || !m.is_object() || !m.contains("id")) return;
    json result = json::object();
    if (m.value("method", "") == "initialize")
      result = {{"protocolVersion", kVersion}, {"capabilities", json::object()},
                {"serverInfo", {{"name", "scripted"}, {"version", "1"}}}};
    events_.push_back({transport::Event::Type::Frame, json{{"jsonrpc", "2.0"}, {"id", m["id"]}, {"result", result}}.dump(), {}});
  }
  void send_raw(const std::string& bytes, Deadline d) override { send(bytes, d); }
  transport::Event receive(Deadline) override {
    if (events_.empty()) return {};
    auto e = std::move(events_.front());
    events_.pop_front();
    return e;
  }
  void close_input() override {}
  void signal(int) override {}
  std::optional<transport::ExitStatus> exit_status() override { return std::nullopt; }
  void stop() override {}
  std::string describe() const override { return "scripted WebSocket server"; }

 private:
  std::function<bool(const std::string&)> closes_;
  int close_code_;
  bool closed_ = false;
  std::deque<transport::Event> events_;
};

// Fuzzes one message (`bytes`) at a scripted server; returns the session's anomalies and death.
std::pair<std::vector<Anomaly>, std::string> fuzz_one(const std::string& bytes,
                                                      std::function<bool(const std::string&)> closes, int close_code) {
  SessionSettings st;
  st.version = kVersion;
  st.timeout_ms = 300;
  st.startup_timeout_ms = 1000;
  st.list_tools = false;
  st.schemas = &protocol::SchemaRegistry::builtin();
  LiveSession s([=] { return std::make_unique<ScriptedWebSocket>(closes, close_code); }, st);
  std::vector<Anomaly> out;
  s.start(out);
  REQUIRE(out.empty());
  REQUIRE(s.alive());
  s.send(describe_message(bytes, "test", kVersion, *st.schemas), out);
  s.settle(out);
  REQUIRE_FALSE(s.alive());
  return {out, s.death()};
}

bool has_crash(const std::vector<Anomaly>& out) {
  return std::any_of(out.begin(), out.end(), [](const Anomaly& a) { return a.oracle == oracle::crash; });
}

const std::string kNotUtf8 = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{\"x\":\"\xC3\x28\"}}";
const std::string kValid = R"({"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"y"}})";
bool is_fuzz_message(const std::string& frame) { return frame.find("\"id\":7") != std::string::npos; }

}  // namespace

TEST_CASE("live fuzzer: a WebSocket close 1007 after a frame that is not UTF-8 is no crash", "[fuzz_live]") {
  // A broken sequence, an overlong form and an encoded surrogate: none is UTF-8 (RFC 3629). The
  // last two passed a laxer check, and the campaign against tamamo-x reported their 1007 as a crash.
  for (const std::string bad : {"\xC3\x28", "\xC0\xAF", "\xED\xA0\x80"}) {
    std::string bytes = kNotUtf8;
    bytes.replace(bytes.find("\xC3\x28"), 2, bad);
    auto [out, death] = fuzz_one(bytes, is_fuzz_message, 1007);
    CHECK_FALSE(has_crash(out));
    CHECK(death == "closed 1007 (not UTF-8)");
  }
}

TEST_CASE("live fuzzer: a WebSocket close 1007 after valid UTF-8 is a crash", "[fuzz_live]") {
  auto [out, death] = fuzz_one(kValid, is_fuzz_message, 1007);
  CHECK(has_crash(out));
  CHECK(death == "crash");
}

TEST_CASE("live fuzzer: a WebSocket close other than 1007 after a frame that is not UTF-8 is a crash", "[fuzz_live]") {
  auto [out, death] = fuzz_one(kNotUtf8, is_fuzz_message, 1011);
  REQUIRE(has_crash(out));
  CHECK(death == "crash");
  CHECK(out.front().detail.find("closed the connection") != std::string::npos);
}
