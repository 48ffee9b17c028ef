// The read-only tools, called in-process against temporary projects.
#include "test_support.hpp"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <regex>

using namespace chant_test;

TEST_CASE("every tool reports an uninitialised project", "[chant][tools]") {
  TempDir empty;
  chant::ToolContext ctx;
  ctx.start_dir = empty.path();
  ctx.exact_project = true;
  for (const auto& tool : chant::tool_catalog()) {
    INFO(tool.name);
    auto r = chant::call_tool(ctx, Json{{"name", tool.name}, {"arguments", Json{{"id", "x"}}}});
    CHECK(is_error(r));
    CHECK(text_of(r) == "Chant not initialized. Run `chant init` first.");
  }
}

TEST_CASE("tools/call envelope errors", "[chant][tools]") {
  Project p;
  chant::ToolContext ctx;
  ctx.start_dir = p.root();
  ctx.exact_project = true;
  auto call = [&](const Json& params) { return chant::call_tool(ctx, params); };
  CHECK(text_of(call(Json::object())) == "Missing required parameter: name");
  CHECK(text_of(call(nullptr)) == "Missing required parameter: name");
  CHECK(text_of(call(Json{{"name", 42}})) == "Missing tool name");
  CHECK(text_of(call(Json{{"name", ""}})) == "Missing tool name");
  auto unknown = call(Json{{"name", "chant_nope"}, {"arguments", Json::object()}});
  CHECK(is_error(unknown));
  CHECK(text_of(unknown) == "Unknown tool: chant_nope");
  CHECK(text_of(call(Json{{"name", "chant_spec_get"}})) == "Missing arguments");
  CHECK(text_of(call(Json{{"name", "chant_spec_get"}, {"arguments", Json::array()}})) ==
        "Invalid arguments: expected an object, got array");
  // Tools without required parameters accept a call without arguments.
  auto list = call(Json{{"name", "chant_spec_list"}});
  CHECK_FALSE(is_error(list));
  CHECK(text_of(p.call("chant_spec_get", Json::object())) == "Missing required parameter: id");
  CHECK(text_of(p.call("chant_spec_get", Json{{"id", 7}})) ==
        "Invalid parameter 'id': expected a string, got number");
  CHECK(text_of(p.call("chant_spec_get", Json{{"id", nullptr}})) == "Missing required parameter: id");
}

TEST_CASE("chant_spec_list: shape, order, default limit 50", "[chant][tools]") {
  Project p;
  for (int i = 60; i >= 1; --i) p.add_spec(fmt::format("2026-01-22-{:03d}-abc", i), fmt::format("Spec {}", i), "pending");
  auto r = json_of(p.call("chant_spec_list"));
  CHECK(r["total"] == 60);
  CHECK(r["limit"] == 50);
  CHECK(r["returned"] == 50);
  REQUIRE(r["specs"].size() == 50);
  CHECK(r["specs"][0]["id"] == "2026-01-22-001-abc");
  CHECK(r["specs"][49]["id"] == "2026-01-22-050-abc");
  auto first = r["specs"][0];
  CHECK(first["title"] == "Spec 1");
  CHECK(first["status"] == "pending");
  CHECK(first["type"] == "code");
  CHECK(first["depends_on"] == Json::array());
  CHECK_FALSE(r.contains("errors"));

  auto zero = json_of(p.call("chant_spec_list", Json{{"limit", 0}}));
  CHECK(zero["returned"] == 0);
  CHECK(zero["total"] == 60);
  auto big = json_of(p.call("chant_spec_list", Json{{"limit", 1000}}));
  CHECK(big["returned"] == 60);
  CHECK(json_of(p.call("chant_spec_list", Json{{"limit", 3.0}}))["returned"] == 3);

  CHECK(text_of(p.call("chant_spec_list", Json{{"limit", -1}})) ==
        "Invalid parameter 'limit': must be 0 or more, got -1");
  CHECK(is_error(p.call("chant_spec_list", Json{{"limit", "10"}})));
  CHECK(is_error(p.call("chant_spec_list", Json{{"limit", 2.5}})));
}

TEST_CASE("chant_spec_list: status filters including ready and blocked", "[chant][tools]") {
  Project p;
  p.add_spec("a-1", "Done", "completed");
  p.add_spec("a-2", "Waits on done", "pending", "", "[a-1]");
  p.add_spec("a-3", "Waits on a-2", "pending", "", "[a-2]");
  p.add_spec("a-4", "Running", "in_progress");
  p.add_spec("a-5", "Stored blocked", "blocked");
  p.add_spec("a-6", "Gone", "cancelled");
  auto ids = [&](const char* status) {
    std::vector<std::string> out;
    Json listing = json_of(p.call("chant_spec_list", Json{{"status", status}}));
    for (auto& s : listing["specs"]) out.push_back(s["id"]);
    return out;
  };
  CHECK(ids("pending") == std::vector<std::string>{"a-2", "a-3"});
  CHECK(ids("in_progress") == std::vector<std::string>{"a-4"});
  CHECK(ids("completed") == std::vector<std::string>{"a-1"});
  CHECK(ids("failed").empty());
  CHECK(ids("ready") == std::vector<std::string>{"a-2"});
  CHECK(ids("blocked") == std::vector<std::string>{"a-3", "a-5"});
  CHECK(ids("cancelled") == std::vector<std::string>{"a-6"});
  CHECK(json_of(p.call("chant_spec_list"))["total"] == 6);  // cancelled specs are listed too
  auto bad = p.call("chant_spec_list", Json{{"status", "done"}});
  CHECK(is_error(bad));
  CHECK_THAT(text_of(bad), Catch::StartsWith("Invalid status filter 'done'"));
}

TEST_CASE("a malformed spec file is named and does not hide the others", "[chant][tools]") {
  Project p;
  p.add_spec("good-1", "Good", "pending");
  p.write_spec("bad-1", "---\ntitle: Bad\nstatus: wip\n---\n");
  p.write_spec("bad-2", "---\ntitle: never closed\n");
  write_text(p.paths().specs / "not an id.md", "---\n---\n");
  write_text(p.paths().specs / "notes.txt", "ignored: not a .md file");
  auto r = json_of(p.call("chant_spec_list"));
  CHECK(r["total"] == 1);
  CHECK(r["specs"][0]["id"] == "good-1");
  REQUIRE(r["errors"].size() == 3);
  CHECK(r["errors"][0]["file"] == ".chant/specs/bad-1.md");
  CHECK_THAT(r["errors"][0]["error"].get<std::string>(), Catch::Contains("line 3: unknown status 'wip'"));
  CHECK(r["errors"][1]["file"] == ".chant/specs/bad-2.md");
  CHECK_THAT(r["errors"][1]["error"].get<std::string>(), Catch::Contains("never closed"));
  CHECK(r["errors"][2]["file"] == ".chant/specs/not an id.md");
  CHECK_THAT(r["errors"][2]["error"].get<std::string>(), Catch::Contains("not a valid spec id"));

  auto status = json_of(p.call("chant_status"));
  CHECK(status["total"] == 1);
  CHECK(status["unreadable"] == 3);
  CHECK(text_of(p.call("chant_status", Json{{"brief", true}})) == "1 pending | 3 unreadable");

  auto get = p.call("chant_spec_get", Json{{"id", "bad-1"}});
  CHECK(is_error(get));
  CHECK_THAT(text_of(get), Catch::StartsWith("Spec bad-1 cannot be read: .chant/specs/bad-1.md: line 3"));
}

TEST_CASE("chant_spec_get: full and partial ids, ambiguity, traversal", "[chant][tools]") {
  Project p;
  p.add_spec("2026-01-22-001-x7m", "Add user authentication", "in_progress", "\n## Description\n\nImplement user auth...\n");
  p.add_spec("2026-01-23-001-q2w", "Other", "pending");
  p.add_spec("2026-01-23-002-k9z", "Third", "pending");

  auto r = json_of(p.call("chant_spec_get", Json{{"id", "x7m"}}));
  CHECK(r["id"] == "2026-01-22-001-x7m");
  CHECK(r["title"] == "Add user authentication");
  CHECK(r["status"] == "in_progress");
  CHECK(r["type"] == "code");
  CHECK(r["body"] == "\n# Add user authentication\n\n## Description\n\nImplement user auth...\n");
  CHECK(r["file"] == ".chant/specs/2026-01-22-001-x7m.md");
  CHECK(json_of(p.call("chant_spec_get", Json{{"id", "002"}}))["id"] == "2026-01-23-002-k9z");
  CHECK(json_of(p.call("chant_spec_get", Json{{"id", "2026-01-23-001-q2w"}}))["title"] == "Other");

  auto amb = p.call("chant_spec_get", Json{{"id", "001"}});
  CHECK(is_error(amb));
  CHECK(text_of(amb) ==
        "Ambiguous spec id '001' matches 2 specs: 2026-01-22-001-x7m, 2026-01-23-001-q2w");
  auto none = p.call("chant_spec_get", Json{{"id", "nothing"}});
  CHECK(text_of(none) == "Spec not found: 'nothing'");

  for (const char* evil : {"../config", "../../etc/passwd", "/etc/passwd", "..", "a\\b", ".lock"}) {
    INFO(evil);
    auto e = p.call("chant_spec_get", Json{{"id", evil}});
    CHECK(is_error(e));
    CHECK_THAT(text_of(e), Catch::StartsWith("Invalid spec id"));
  }
  auto nul = p.call("chant_spec_get", Json{{"id", std::string("x7m\0", 4)}});
  CHECK_THAT(text_of(nul), Catch::StartsWith("Invalid spec id") && Catch::Contains("NUL"));
}

TEST_CASE("chant_ready: pending specs whose dependencies are completed or archived", "[chant][tools]") {
  Project p;
  p.add_spec("r-1", "Base", "completed");
  p.add_spec("r-2", "Needs base", "pending", "", "[r-1]");
  p.add_spec("r-3", "Needs r-2", "pending", "", "[r-2]");
  p.add_spec("r-4", "Needs archived", "pending", "", "[old-1]");
  p.add_spec("r-5", "Needs ghost", "pending", "", "[ghost-9]");
  p.add_spec("r-6", "Running", "in_progress");
  write_text(p.paths().archive / "old-1.md", "---\nstatus: completed\n---\n");
  auto r = json_of(p.call("chant_ready"));
  std::vector<std::string> ids;
  for (auto& s : r["specs"]) ids.push_back(s["id"]);
  CHECK(ids == std::vector<std::string>{"r-2", "r-4"});
  CHECK(r["total"] == 2);
  CHECK(r["limit"] == 50);
  CHECK(r["returned"] == 2);
  auto one = json_of(p.call("chant_ready", Json{{"limit", 1}}));
  CHECK(one["returned"] == 1);
  CHECK(one["total"] == 2);
}

TEST_CASE("chant_status: counts, brief line, activity", "[chant][tools]") {
  Project p;
  CHECK(text_of(p.call("chant_status", Json{{"brief", true}})) == "No specs");
  p.add_spec("s-1", "P1", "pending");
  p.add_spec("s-2", "P2", "pending");
  p.add_spec("s-3", "P3", "pending");
  p.add_spec("s-4", "I1", "in_progress");
  p.add_spec("s-5", "I2", "in_progress");
  p.add_spec("s-6", "C1", "completed");
  p.add_spec("s-7", "X", "cancelled");
  write_text(p.paths().logs / "s-4.log", "working\n");

  auto r = json_of(p.call("chant_status"));
  std::vector<std::string> keys;
  for (auto& [k, v] : r.items()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"total", "pending", "in_progress", "completed", "failed",
                                         "blocked", "cancelled", "needs_attention"});
  CHECK(r["total"] == 7);
  CHECK(r["pending"] == 3);
  CHECK(r["in_progress"] == 2);
  CHECK(r["completed"] == 1);
  CHECK(r["failed"] == 0);
  CHECK(r["cancelled"] == 1);

  CHECK(text_of(p.call("chant_status", Json{{"brief", true}})) ==
        "3 pending | 2 in_progress | 1 completed | 1 cancelled");
  CHECK(is_error(p.call("chant_status", Json{{"brief", "yes"}})));

  auto a = json_of(p.call("chant_status", Json{{"include_activity", true}}));
  REQUIRE(a["in_progress_activity"].size() == 2);
  auto s4 = a["in_progress_activity"][0];
  CHECK(s4["id"] == "s-4");
  CHECK(s4["title"] == "I1");
  CHECK(s4["has_log"] == true);
  CHECK(std::regex_match(s4["spec_modified"].get<std::string>(),
                         std::regex(R"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")));
  CHECK(s4["log_modified"].is_string());
  auto s5 = a["in_progress_activity"][1];
  CHECK(s5["has_log"] == false);
  CHECK(s5["log_modified"].is_null());
  CHECK_FALSE(r.contains("in_progress_activity"));
}

TEST_CASE("chant_log: last lines, default 100, missing log", "[chant][tools]") {
  Project p;
  p.add_spec("l-1", "Logged", "in_progress");
  p.add_spec("l-2", "Silent", "pending");
  std::string log;
  for (int i = 1; i <= 150; ++i) log += fmt::format("line {}\n", i);
  write_text(p.paths().logs / "l-1.log", log);

  auto all = text_of(p.call("chant_log", Json{{"id", "l-1"}}));
  CHECK(all.rfind("line 51\n", 0) == 0);
  CHECK(all.size() >= 8);
  CHECK(all.substr(all.size() - 8) == "line 150");
  CHECK(std::count(all.begin(), all.end(), '\n') == 99);
  CHECK(text_of(p.call("chant_log", Json{{"id", "l-1"}, {"lines", 2}})) == "line 149\nline 150");
  CHECK(text_of(p.call("chant_log", Json{{"id", "l-1"}, {"lines", 0}})).empty());
  CHECK(std::count(log.begin(), log.end(), '\n') == 150);
  auto everything = text_of(p.call("chant_log", Json{{"id", "l-1"}, {"lines", 100000}}));
  CHECK(everything + "\n" == log);

  auto missing = p.call("chant_log", Json{{"id", "l-2"}});
  CHECK(is_error(missing));
  CHECK(text_of(missing) == "No log file for spec l-2: .chant/logs/l-2.log does not exist");
  CHECK(text_of(p.call("chant_log", Json{{"lines", 5}})) == "Missing required parameter: id");
}

TEST_CASE("chant_search: case-insensitive title and body, status filter", "[chant][tools]") {
  Project p;
  p.add_spec("q-1", "Add OAuth login", "pending");
  p.add_spec("q-2", "Refactor", "completed", "Touches the oauth client.\n");
  p.add_spec("q-3", "Unrelated", "pending");
  auto r = json_of(p.call("chant_search", Json{{"query", "OAUTH"}}));
  CHECK(r["query"] == "OAUTH");
  CHECK(r["total"] == 2);
  CHECK(r["specs"][0]["id"] == "q-1");
  CHECK(r["specs"][1]["id"] == "q-2");
  auto done = json_of(p.call("chant_search", Json{{"query", "oauth"}, {"status", "completed"}}));
  CHECK(done["total"] == 1);
  CHECK(done["specs"][0]["id"] == "q-2");
  CHECK(json_of(p.call("chant_search", Json{{"query", "zzz"}}))["total"] == 0);
  CHECK(text_of(p.call("chant_search", Json::object())) == "Missing required parameter: query");
}

TEST_CASE("chant_verify: criteria counts and notes", "[chant][tools]") {
  Project p;
  p.add_spec("v-1", "All done", "in_progress",
             "\n## Acceptance Criteria\n\n- [x] a\n- [x] b\n- [x] c\n- [x] d\n- [x] e\n");
  p.add_spec("v-2", "Half", "in_progress",
             "\n## Acceptance Criteria\n\n- [x] a\n- [ ] Tests added\n- [x] c\n- [ ] Documentation updated\n- [x] e\n");
  p.add_spec("v-3", "None", "pending");

  auto ok = json_of(p.call("chant_verify", Json{{"id", "v-1"}}));
  CHECK(ok["spec_id"] == "v-1");
  CHECK(ok["verified"] == true);
  CHECK(ok["criteria"] == Json{{"total", 5}, {"checked", 5}, {"unchecked", 0}});
  CHECK(ok["unchecked_items"] == Json::array());
  CHECK(ok["verification_notes"] == "All acceptance criteria met");

  auto half = json_of(p.call("chant_verify", Json{{"id", "v-2"}}));
  CHECK(half["verified"] == false);
  CHECK(half["criteria"] == Json{{"total", 5}, {"checked", 3}, {"unchecked", 2}});
  CHECK(half["unchecked_items"] == Json::array({"- [ ] Tests added", "- [ ] Documentation updated"}));
  CHECK(half["verification_notes"] == "2 criteria not yet checked");

  auto none = json_of(p.call("chant_verify", Json{{"id", "v-3"}}));
  CHECK(none["verified"] == true);
  CHECK(none["criteria"]["total"] == 0);
  CHECK(none["verification_notes"] == "No acceptance criteria found");
}

TEST_CASE("chant_diagnose: healthy, broken, stalled", "[chant][tools]") {
  Project p;
  p.add_spec("d-1", "Healthy", "pending");
  p.write_spec("d-2", "---\nstatus: [not, a, status]\n---\n");
  p.add_spec("d-3", "Stalled", "in_progress", "", "[ghost-1]");

  auto ok = json_of(p.call("chant_diagnose", Json{{"id", "d-1"}}));
  CHECK(ok["spec_id"] == "d-1");
  CHECK(ok["status"] == "pending");
  CHECK(ok["location"] == ".chant/specs/d-1.md");
  CHECK(ok["diagnosis"] == "No problems found");
  CHECK(ok["suggestion"].is_null());
  std::vector<std::string> names;
  for (auto& c : ok["checks"]) {
    names.push_back(c["name"]);
    CHECK(c["passed"] == true);
  }
  CHECK(names == std::vector<std::string>{"spec_file", "front_matter", "log", "lock", "commits",
                                          "criteria", "dependencies"});

  auto broken = json_of(p.call("chant_diagnose", Json{{"id", "d-2"}}));
  CHECK(broken["status"] == "unknown");
  CHECK(broken["checks"][1]["name"] == "front_matter");
  CHECK(broken["checks"][1]["passed"] == false);
  CHECK_THAT(broken["diagnosis"].get<std::string>(), Catch::Contains("line 2"));
  CHECK(broken["suggestion"].is_string());

  auto stalled = json_of(p.call("chant_diagnose", Json{{"id", "d-3"}}));
  std::map<std::string, bool> passed;
  for (auto& c : stalled["checks"]) passed[c["name"]] = c["passed"];
  CHECK(passed["log"] == false);
  CHECK(passed["dependencies"] == false);
  CHECK_THAT(stalled["diagnosis"].get<std::string>(), Catch::Contains("ghost-1"));
}
