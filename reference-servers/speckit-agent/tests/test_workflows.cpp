// The workflows in process: documents written from inputs and from each other, prerequisites,
// and that a stopped call writes nothing.
#include "agent_errors.hpp"
#include "spec_directory.hpp"
#include "tool_catalog.hpp"
#include "workflows.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace speckit;

namespace {

struct Scratch {
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "speckit-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()));
    root = pattern;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  fs::path root;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Run {
  CancelToken token{std::chrono::steady_clock::now() + std::chrono::seconds(30)};
  std::vector<std::pair<int, std::string>> progress;
  std::string call(WorkflowCall c) {
    WorkContext ctx(token, [&](int done, int, const std::string& m) { progress.emplace_back(done, m); },
                    std::chrono::milliseconds(0));
    return run_workflow(c, ctx);
  }
};

WorkflowCall make(const std::string& tool, const fs::path& dir) {
  WorkflowCall c;
  c.tool = tool;
  c.spec_directory = dir.string();
  return c;
}

}  // namespace

TEST_CASE("the five workflows build on each other's documents", "[workflows]") {
  Scratch s;
  fs::path dir = s.root / "specs" / "001-login";
  Run run;
  auto specify = make("speckit.specify", dir);
  specify.feature_description = "Users log in with email. Sessions expire after a day. Should we support SSO?";
  CHECK(run.call(specify).find("created successfully") != std::string::npos);
  std::string spec = slurp(dir / "spec.md");
  CHECK(spec.find("# Feature Specification: Users log in with email") != std::string::npos);
  CHECK(spec.find("- FR-001: Users log in with email.") != std::string::npos);
  CHECK(spec.find("- FR-002: Sessions expire after a day.") != std::string::npos);
  CHECK(spec.find("- Should we support SSO?") != std::string::npos);
  // progress strictly increases, one report per step
  for (std::size_t i = 1; i < run.progress.size(); ++i) CHECK(run.progress[i].first > run.progress[i - 1].first);

  CHECK(run.call(make("speckit.clarify", dir)).find("session 1") != std::string::npos);
  CHECK(slurp(dir / "spec.md").find("- Q: Should we support SSO?") != std::string::npos);

  run.call(make("speckit.plan", dir));
  std::string plan = slurp(dir / "plan.md");
  CHECK(plan.find("- D-002 [FR-002] Sessions expire after a day.") != std::string::npos);
  CHECK(plan.find("- R-001 Should we support SSO? (clarification pending)") != std::string::npos);

  CHECK(run.call(make("speckit.tasks", dir)).find("6 task(s)") != std::string::npos);
  std::string tasks = slurp(dir / "tasks.md");
  CHECK(tasks.find("- [ ] T002 [FR-001] Implement: Users log in with email.") != std::string::npos);

  auto implement = make("speckit.implement", dir);
  implement.task_filter = "fr-001";
  CHECK(run.call(implement).find("Implemented 2 task(s)") != std::string::npos);
  tasks = slurp(dir / "tasks.md");
  CHECK(tasks.find("- [x] T002") != std::string::npos);
  CHECK(tasks.find("- [x] T003") != std::string::npos);
  CHECK(tasks.find("- [ ] T004") != std::string::npos);

  // regenerating tasks keeps finished ones; re-specifying keeps clarifications
  CHECK(run.call(make("speckit.tasks", dir)).find("2 already complete") != std::string::npos);
  run.call(specify);
  CHECK(slurp(dir / "spec.md").find("### Session 1") != std::string::npos);
}

TEST_CASE("a workflow whose input document is missing fails with -32000 naming the step", "[workflows]") {
  Scratch s;
  Run run;
  for (auto [tool, needs] : {std::pair{"speckit.plan", "spec.md"}, {"speckit.clarify", "spec.md"},
                             {"speckit.tasks", "plan.md"}, {"speckit.implement", "tasks.md"}}) {
    try {
      run.call(make(tool, s.root));
      FAIL("no error for " << tool);
    } catch (const mcpref::rpc::RpcError& e) {
      CHECK(e.code() == kToolExecutionError);
      CHECK(std::string(e.what()).find(needs) != std::string::npos);
      CHECK(e.data()["tool"] == tool);
    }
  }
}

TEST_CASE("a cancelled call writes nothing", "[workflows][cancel]") {
  Scratch s;
  Run run;
  run.token.cancel(StopReason::CancelRequest);
  auto specify = make("speckit.specify", s.root / "x");
  specify.feature_description = "Anything.";
  CHECK_THROWS_AS(run.call(specify), Stopped);
  CHECK_FALSE(fs::exists(s.root / "x" / "spec.md"));
}

TEST_CASE("a call past its deadline stops at the next step", "[workflows][cancel]") {
  Scratch s;
  CancelToken token(std::chrono::steady_clock::now() + std::chrono::milliseconds(50));
  WorkContext ctx(token, {}, std::chrono::milliseconds(40));
  auto specify = make("speckit.specify", s.root);
  specify.feature_description = "Anything.";
  CHECK_THROWS_AS(run_workflow(specify, ctx), DeadlineExceeded);
  CHECK_FALSE(fs::exists(s.root / "spec.md"));
}

TEST_CASE("spec_directory must be absolute and free of dot parts", "[arguments]") {
  CHECK(spec_directory_problem("/tmp/specs/001").has_value() == false);
  CHECK(spec_directory_problem("specs/001")->find("absolute") != std::string::npos);
  CHECK(spec_directory_problem("/tmp/../etc")->find("..") != std::string::npos);
  CHECK(spec_directory_problem("/tmp/./x").has_value());
  CHECK(spec_directory_problem("/").has_value());
  CHECK(spec_directory_problem("").has_value());
}

TEST_CASE("tool arguments are checked against the documented schemas", "[arguments]") {
  using mcpref::Json;
  auto code_of = [](const Json& params) {
    try {
      parse_tool_call(params);
      return 0;
    } catch (const mcpref::rpc::RpcError& e) {
      return e.code();
    }
  };
  CHECK(tool_definitions().size() == 5);
  CHECK(code_of({{"name", "speckit.plan"}, {"arguments", {{"spec_directory", "/a"}}}}) == 0);
  CHECK(code_of({{"name", "speckit.plan"}, {"arguments", {{"spec_directory", "a"}}}}) == -32602);
  CHECK(code_of({{"name", "speckit.plan"}, {"arguments", Json::object()}}) == -32602);
  CHECK(code_of({{"name", "speckit.specify"}, {"arguments", {{"spec_directory", "/a"}}}}) == -32602);
  CHECK(code_of({{"name", "speckit.clarify"}, {"arguments", {{"spec_directory", "/a"}, {"questions", {1}}}}}) ==
        -32602);
  CHECK(code_of({{"name", "speckit.nope"}, {"arguments", {{"spec_directory", "/a"}}}}) == -32602);
  CHECK(code_of({{"name", "speckit.plan"}, {"arguments", {{"spec_directory", "/a"}, {"extra", 1}}}}) == -32602);
  auto c = parse_tool_call({{"name", "speckit.implement"}, {"arguments", {{"spec_directory", "/a"}, {"task_filter", "T1"}}}});
  CHECK(c.task_filter == std::optional<std::string>("T1"));
}
