// The core without a terminal: configuration errors, arguments per command, the progress bar,
// the layout at several sizes, and the session's protocol behaviour against a scripted channel
// (timeout -> $/cancelRequest, progress filtered by token, shutdown before exit) and against
// the real speckit-agent.
#include "config.hpp"
#include "mcp_session.hpp"
#include "progress_model.hpp"
#include "tui_layout.hpp"
#include "workflow_commands.hpp"
#include "workflow_runner.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace spectui;
using mcpref::Json;
namespace fs = std::filesystem;

TEST_CASE("configuration: the document's shapes parse, mistakes are named with their place", "[config]") {
  Config c = parse_config("[mcp]\ntransport = \"stdio\"\ncommand = \"claude\"\nargs = [\"--mcp\"]\n", "a.toml");
  CHECK(c.command == "claude");
  CHECK(c.args == std::vector<std::string>{"--mcp"});
  CHECK(c.timeout == std::chrono::milliseconds(60000));
  Config h = parse_config("[mcp]\ntransport = \"http\"\nendpoint = \"http://localhost:8080/mcp\"\ntimeout_seconds = 1.5\n", "b.toml");
  CHECK(h.endpoint == "http://localhost:8080/mcp");
  CHECK(h.timeout == std::chrono::milliseconds(1500));
  CHECK_THROWS_WITH(parse_config("[mcp]\ntransport = \"pigeon\"\n", "c.toml"), Catch::Contains("c.toml:2:") && Catch::Contains("stdio"));
  CHECK_THROWS_WITH(parse_config("[mcp]\ncomand = \"x\"\n", "d.toml"), Catch::Contains("d.toml:2:") && Catch::Contains("unknown key mcp.comand"));
  CHECK_THROWS_WITH(parse_config("[mcp\n", "e.toml"), Catch::Contains("e.toml:1:") && Catch::Contains("not valid TOML"));
  CHECK_THROWS_WITH(parse_config("[mcp]\ntransport = \"http\"\n", "f.toml"), Catch::Contains("needs an endpoint"));
  CHECK_THROWS_WITH(parse_config("[mcp]\ntimeout_seconds = -1\n", "g.toml"), Catch::Contains("timeout_seconds"));
  CHECK_THROWS_WITH(parse_config("[mcp]\nargs = [1]\n", "h.toml"), Catch::Contains("array of strings"));
  CHECK_THROWS_WITH(load_config_file("/nonexistent/spec-tui.toml"), Catch::Contains("cannot read"));
}

TEST_CASE("each command's arguments follow the documented input schemas", "[commands]") {
  auto specify = *find_command("specify");
  Json a = build_arguments(specify, "  Add login  ", "/tmp/s");
  CHECK(a == Json{{"feature_description", "Add login"}, {"spec_directory", "/tmp/s"}});
  CHECK_THROWS_AS(build_arguments(specify, " ", "/tmp/s"), std::invalid_argument);
  CHECK(build_arguments(*find_command("clarify"), "a?; b?", "/tmp/s")["questions"] == Json::array({"a?", "b?"}));
  CHECK_FALSE(build_arguments(*find_command("clarify"), "", "/tmp/s").contains("questions"));
  CHECK(build_arguments(*find_command("plan"), "", "rel/dir")["spec_directory"] == (fs::current_path() / "rel/dir").string());
  CHECK(build_arguments(*find_command("implement"), "T002", "/tmp/s")["task_filter"] == "T002");
  CHECK(find_command("speckit.tasks")->name == std::string("tasks"));
  CHECK_FALSE(find_command("deploy"));
}

TEST_CASE("the progress bar fills with progress/total and refuses values that do not increase", "[progress]") {
  ProgressModel p;
  CHECK(p.update(50, 100, "Analyzing requirements..."));
  CHECK(p.bar(20) == "[#######......]  50%");
  CHECK(p.bar(20).size() == 20);
  CHECK_FALSE(p.update(40, 100, "older"));
  CHECK(p.message() == "Analyzing requirements...");
  CHECK(p.line() == " 50% (50/100) Analyzing requirements...");
  ProgressModel n;
  n.update(3, std::nullopt, "working");
  CHECK(n.bar(16) == "[ 3 steps      ]");
}

TEST_CASE("the layout fits every terminal size it accepts", "[layout]") {
  for (int lines : {12, 24, 50}) {
    for (int cols : {50, 80, 200}) {
      Layout l = compute_layout(lines, cols);
      REQUIRE_FALSE(l.too_small);
      CHECK(l.menu.width + l.output.width == cols);
      CHECK(l.help.top == lines - 1);
      CHECK(l.menu.top + l.menu.height <= l.input.top);
    }
  }
  CHECK(compute_layout(11, 80).too_small);
  CHECK(compute_layout(24, 49).too_small);
}

namespace {

// Every request and notification a scripted channel was given, in order; outlives the channels.
struct Record {
  std::vector<Json> sent;
  std::mutex m;
};

// A channel that answers the handshake and plays one tools/call script.
class ScriptedChannel : public mcpref::ClientChannel {
 public:
  enum class Call { Answer, Hang, ProgressThenAnswer, FailInternal };
  explicit ScriptedChannel(Record& record) : sent(record.sent), m(record.m) {}
  Call call = Call::Answer;
  std::vector<Json>& sent;
  std::mutex& m;

  void open(std::chrono::milliseconds) override { open_ = true; }
  Json request(const std::string& method, const Json& params, std::chrono::milliseconds timeout) override {
    Json id = ++next_;
    {
      std::lock_guard lock(m);
      sent.push_back({{"method", method}, {"id", id}, {"params", params}});
    }
    announce_sent(method, id);
    if (method == "initialize")
      return {{"protocolVersion", "2025-11-25"}, {"capabilities", {{"tools", Json::object()}}},
              {"serverInfo", {{"name", "scripted"}, {"version", "9"}}}};
    if (method == "tools/list") return {{"tools", Json::array({{{"name", "speckit.plan"}}})}};
    if (method == "shutdown") return nullptr;
    if (call == Call::Hang) {
      std::this_thread::sleep_for(timeout);
      throw mcpref::RequestTimeout("no answer", id);
    }
    if (call == Call::FailInternal) throw mcpref::ServerError(-32603, "oops");
    if (call == Call::ProgressThenAnswer) {
      std::string token = params["_meta"]["progressToken"];
      deliver_notification("notifications/progress", {{"progressToken", "someone-else"}, {"progress", 99}, {"total", 100}});
      deliver_notification("notifications/progress", {{"progressToken", token}, {"progress", 1}, {"total", 4}, {"message", "one"}});
      deliver_notification("notifications/progress", {{"progressToken", token}, {"progress", 2}, {"total", 4}, {"message", "two"}});
    }
    return {{"content", Json::array({{{"type", "text"}, {"text", "done"}}})}, {"isError", false}};
  }
  void notify(const std::string& method, const Json& params) override {
    std::lock_guard lock(m);
    sent.push_back({{"method", method}, {"params", params}});
  }
  bool is_open() const override { return open_; }
  void close(std::chrono::milliseconds) override { open_ = false; }

 private:
  bool open_ = false;
  long long next_ = 0;
};

std::vector<std::string> methods(Record& c) {
  std::lock_guard lock(c.m);
  std::vector<std::string> out;
  for (const auto& s : c.sent) out.push_back(s["method"]);
  return out;
}

struct Harness {
  OutputLog log;
  Record record;
  std::unique_ptr<McpSession> session;
  explicit Harness(ScriptedChannel::Call call, std::chrono::milliseconds timeout = std::chrono::milliseconds(2000)) {
    SessionOptions o;
    o.timeout = timeout;
    o.backoff.initial = std::chrono::milliseconds(1);
    session = std::make_unique<McpSession>(
        [this, call] {
          auto c = std::make_unique<ScriptedChannel>(record);
          c->call = call;
          return std::unique_ptr<mcpref::ClientChannel>(std::move(c));
        },
        o, log);
  }
};

}  // namespace

TEST_CASE("the session's handshake, call and shutdown follow the document", "[session]") {
  Harness h(ScriptedChannel::Call::ProgressThenAnswer);
  std::vector<std::string> seen;
  CHECK(h.session->call_tool("speckit.plan", {{"spec_directory", "/x"}},
                             [&](const ProgressModel& p) { seen.push_back(p.message()); }) == "done");
  CHECK(seen == std::vector<std::string>{"one", "two"});  // the other token's progress is ignored
  Record& c = h.record;
  h.session->shutdown();
  CHECK(methods(c) == std::vector<std::string>{"initialize", "notifications/initialized", "tools/list", "tools/call",
                                                "shutdown", "exit"});
  Json init = c.sent[0]["params"];
  CHECK(init == Json{{"protocolVersion", "2025-11-25"}, {"capabilities", {{"sampling", Json::object()}}},
                     {"clientInfo", {{"name", "spec-tui"}, {"version", "0.1.0"}}}});
  CHECK(c.sent[3]["params"]["_meta"]["progressToken"] == "tool-1");
}

TEST_CASE("a call that times out is cancelled with $/cancelRequest naming its id", "[session]") {
  Harness h(ScriptedChannel::Call::Hang, std::chrono::milliseconds(100));
  try {
    h.session->call_tool("speckit.plan", {{"spec_directory", "/x"}}, {});
    FAIL("no timeout");
  } catch (const CommandFailed& e) {
    CHECK(e.kind() == CommandFailed::Kind::Timeout);
    CHECK(std::string(e.what()).find("Timed out after 0.1 s") != std::string::npos);
  }
  Record& c = h.record;
  std::lock_guard lock(c.m);
  REQUIRE(c.sent.size() == 5);
  CHECK(c.sent[4] == Json{{"method", "$/cancelRequest"}, {"params", {{"id", c.sent[3]["id"]}}}});
}

TEST_CASE("an internal error is retried, then reported", "[session]") {
  Harness h(ScriptedChannel::Call::FailInternal);
  CHECK_THROWS_AS(h.session->call_tool("speckit.plan", {{"spec_directory", "/x"}}, {}), CommandFailed);
  auto m = methods(h.record);
  CHECK(std::count(m.begin(), m.end(), "tools/call") == 3);  // the first try and 2 retries
  CHECK_THROWS_WITH(h.session->call_tool("speckit.deploy", Json::object(), {}), Catch::Contains("does not offer"));
}

TEST_CASE("the real agent: every command in order through the runner, and a cancel", "[agent]") {
  fs::path dir = fs::temp_directory_path() / ("spec-tui-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  Config config;
  config.command = SPECKIT_AGENT_BINARY;
  config.args = {"--step-ms", "30"};
  config.spec_directory = dir / "001";
  config.timeout = std::chrono::milliseconds(10000);
  OutputLog log;
  log.open(dir / "log" / "out.log");
  {
    WorkflowRunner runner(config, log);
    REQUIRE(runner.connect().ok);
    CHECK(runner.run(*find_command("specify"), "Add login. Maybe SSO?").ok);
    CHECK(runner.progress().fraction() == 1.0);
    CHECK(runner.run(*find_command("clarify"), "").ok);
    CHECK(runner.run(*find_command("plan"), "").ok);
    CHECK(runner.run(*find_command("tasks"), "").ok);
    RunOutcome impl = runner.run(*find_command("implement"), "T001");
    CHECK(impl.message.find("Implemented 1 task(s)") != std::string::npos);
    RunOutcome missing = runner.run(*find_command("implement"), "nothing-matches");
    CHECK_FALSE(missing.ok);
    CHECK(missing.message.find("speckit.implement failed: no open task") != std::string::npos);

    config.args = {"--step-ms", "400"};
    WorkflowRunner slow(config, log);
    REQUIRE(slow.connect().ok);
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      slow.cancel();
    });
    RunOutcome cancelled = slow.run(*find_command("plan"), "");
    canceller.join();
    CHECK(cancelled.kind == CommandFailed::Kind::Cancelled);
  }
  std::ifstream in(dir / "log" / "out.log");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(all.find(" out > specify") != std::string::npos);
  CHECK(all.find(" detail error -32000") != std::string::npos);
  CHECK(all.find("Cancelled: speckit.plan was cancelled") != std::string::npos);
  fs::remove_all(dir);
}
