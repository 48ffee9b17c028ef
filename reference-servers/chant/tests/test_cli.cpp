// chant init / add / list as a user runs them.
#include "process_runner.hpp"

#include <catch2/catch.hpp>

#include <regex>

using namespace chant_test;

TEST_CASE("chant init creates the layout and is idempotent", "[chant][cli]") {
  TempDir d;
  auto first = run_chant({"init"}, d.path());
  CHECK(first.exit_code == 0);
  for (const char* sub : {".chant/specs", ".chant/logs", ".chant/archive"}) {
    CHECK(fs::is_directory(d.path() / sub));
  }
  CHECK(fs::exists(d.path() / ".chant/config.md"));
  CHECK_FALSE(fs::exists(d.path() / ".mcp.json"));  // no tty, no --agent: no agent file
  CHECK_THAT(first.out, Catch::Contains("chant init --agent claude"));

  auto add = run_chant({"add", "Keep", "me"}, d.path());
  REQUIRE(add.exit_code == 0);
  std::string id = add.out.substr(0, add.out.size() - 1);
  CHECK(std::regex_match(id, std::regex(R"(\d{4}-\d\d-\d\d-001-[0-9a-z]{3})")));
  std::string spec = slurp(d.path() / ".chant/specs" / (id + ".md"));
  CHECK_THAT(spec, Catch::Contains("title: Keep me"));
  write_text(d.path() / ".chant/config.md", "custom config\n");

  auto again = run_chant({"init", "--agent", "claude"}, d.path());
  CHECK(again.exit_code == 0);
  CHECK(slurp(d.path() / ".chant/specs" / (id + ".md")) == spec);
  CHECK(slurp(d.path() / ".chant/config.md") == "custom config\n");
  CHECK(slurp(d.path() / ".mcp.json") == chant::kClaudeMcpJson);
  CHECK(run_chant({"init", "--agent", "claude"}, d.path()).exit_code == 0);
  CHECK(slurp(d.path() / ".mcp.json") == chant::kClaudeMcpJson);
}

TEST_CASE("chant init --agent claude writes the documented .mcp.json", "[chant][cli]") {
  TempDir d;
  REQUIRE(run_chant({"init", "--agent", "claude"}, d.path()).exit_code == 0);
  auto doc = Json::parse(slurp(d.path() / ".mcp.json"));
  CHECK(doc == Json::parse(R"({"mcpServers":{"chant":{"type":"stdio","command":"chant","args":["mcp"]}}})"));
}

TEST_CASE("chant init merges into an existing .mcp.json and refuses a broken one", "[chant][cli]") {
  TempDir d;
  write_text(d.path() / ".mcp.json", R"({"mcpServers":{"other":{"command":"x"}},"keep":1})");
  REQUIRE(run_chant({"init", "--agent", "claude"}, d.path()).exit_code == 0);
  auto doc = Json::parse(slurp(d.path() / ".mcp.json"));
  CHECK(doc["mcpServers"]["other"]["command"] == "x");
  CHECK(doc["mcpServers"]["chant"]["args"] == Json::array({"mcp"}));
  CHECK(doc["keep"] == 1);

  TempDir broken;
  write_text(broken.path() / ".mcp.json", "{ not json");
  auto r = run_chant({"init", "--agent", "claude"}, broken.path());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains(".mcp.json is not valid JSON"));
  CHECK(slurp(broken.path() / ".mcp.json") == "{ not json");
  CHECK(fs::is_directory(broken.path() / ".chant/specs"));
}

TEST_CASE("chant add and list", "[chant][cli]") {
  TempDir d;
  CHECK(run_chant({"add", "x"}, d.path()).exit_code == 1);  // not initialised
  REQUIRE(run_chant({"init"}, d.path()).exit_code == 0);
  auto a = run_chant({"add", "First task", "--type", "feature", "--label", "ui"}, d.path());
  REQUIRE(a.exit_code == 0);
  std::string first = a.out.substr(0, a.out.size() - 1);
  auto b = run_chant({"add", "Second task", "--depends-on", first.substr(first.size() - 3)}, d.path());
  REQUIRE(b.exit_code == 0);
  std::string second = b.out.substr(0, b.out.size() - 1);
  CHECK_THAT(slurp(d.path() / ".chant/specs" / (second + ".md")),
             Catch::Contains("depends_on: [" + first + "]"));
  CHECK(run_chant({"add", "bad", "--type", "has space"}, d.path()).exit_code == 1);
  CHECK(run_chant({"add", "bad", "--depends-on", "../x"}, d.path()).exit_code == 1);

  auto list = run_chant({"list"}, d.path());
  CHECK(list.exit_code == 0);
  CHECK_THAT(list.out, Catch::Contains(first) && Catch::Contains("feature") && Catch::Contains("First task"));
  auto ready = run_chant({"list", "--status", "ready"}, d.path());
  CHECK_THAT(ready.out, Catch::Contains(first));
  CHECK(ready.out.find(second) == std::string::npos);
  CHECK(run_chant({"list", "--status", "bogus"}, d.path()).exit_code == 2);
  CHECK(run_chant({"frobnicate"}, d.path()).exit_code == 2);
  CHECK(run_chant({"--version"}, d.path()).out == "chant 0.1.0\n");
}
