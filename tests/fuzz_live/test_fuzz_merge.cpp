// `mcpspec fuzz merge` on hand-made findings folders: the union by key, sightings and counts added
// up, clashing file names kept apart, and each broken input refused with a message naming it.
// (The real binary against real runs: tests/fuzz_live/fuzz_jobs_merge_check.py.)
#include "harness/fuzz/merge.hpp"
#include "tests/core/core_support.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using mcpspec::fuzz::MergeError;
using mcpspec::fuzz::merge_findings;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Folder {
  mcpspec::coretest::TempDir tmp;
  fs::path root{tmp.path()};
  // A run's findings folder: report.json listing `findings`, and a scenario file for each.
  std::string run(const std::string& name, std::uint64_t seed, const json& findings) const {
    for (const auto& f : findings)
      if (f.contains("reproducer"))
        tmp.write(name + "/" + fs::path(f["reproducer"].get<std::string>()).filename().string(), "{}");
    json report = {{"target", "srv"},   {"seed", seed},         {"jobs", 1},          {"first_job", 0},
                   {"messages_sent", 100}, {"findings", findings}, {"errors", json::array()}};
    tmp.write(name + "/report.json", report.dump());
    return (root / name).string();
  }
};

json finding(const std::string& oracle, const std::string& method, const std::string& file, int job = 0) {
  return {{"oracle", oracle}, {"method", method}, {"signature", "sig"}, {"detail", "d"}, {"reproducer", "/elsewhere/" + file},
          {"duplicates", 2}, {"seed", 1}, {"job", job}};
}

}  // namespace

TEST_CASE("fuzz merge: overlapping runs give the union, each finding once with every sighting", "[fuzz_live]") {
  Folder t;
  std::string a = t.run("a", 1, json::array({finding("crash", "ping", "crash-ping-1.json"), finding("hang", "x", "hang-x-2.json")}));
  std::string b = t.run("b", 2, json::array({finding("crash", "ping", "crash-ping-1.json", 1)}));
  auto out = (t.root / "out").string();
  auto r = merge_findings({a, b}, out);
  REQUIRE(r.findings == 2);
  const json& crash = r.report["findings"][0];
  CHECK(crash["key"] == "crash | ping | sig");
  CHECK(crash["found_in"].size() == 2);
  CHECK(crash["seen"] == 6);  // 1 + 2 duplicates in each run
  CHECK(crash["found_in"][1]["job"] == 1);
  CHECK(!crash.contains("duplicates"));
  CHECK(fs::exists(fs::path(out) / "crash-ping-1.json"));
  CHECK(fs::exists(fs::path(out) / "hang-x-2.json"));
  CHECK(r.report["merged_from"].size() == 2);
  CHECK(r.report["messages_sent"] == 200);
  CHECK(fs::exists(fs::path(out) / "report.md"));
  // A merge merged again keeps its runs and sightings.
  auto again = merge_findings({out, a}, (t.root / "again").string());
  CHECK(again.report["merged_from"].size() == 3);
  CHECK(again.report["findings"][0]["found_in"].size() == 3);
}

TEST_CASE("fuzz merge: two findings whose files share a name are both kept", "[fuzz_live]") {
  Folder t;
  std::string a = t.run("a", 1, json::array({finding("crash", "ping", "same.json")}));
  std::string b = t.run("b", 1, json::array({finding("hang", "ping", "same.json")}));
  auto r = merge_findings({a, b}, (t.root / "out").string());
  REQUIRE(r.findings == 2);
  CHECK(fs::path(r.report["findings"][0]["reproducer"].get<std::string>()).filename() == "same.json");
  CHECK(fs::path(r.report["findings"][1]["reproducer"].get<std::string>()).filename() == "same-2.json");
}

TEST_CASE("fuzz merge: broken inputs are refused, naming what is wrong", "[fuzz_live]") {
  Folder t;
  auto out = (t.root / "out").string();
  auto message = [&](const std::vector<std::string>& dirs, const std::string& to) {
    try {
      merge_findings(dirs, to);
    } catch (const MergeError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  fs::create_directories(t.root / "empty");
  CHECK_THAT(message({(t.root / "empty").string()}, out), Catch::Contains("empty/report.json: cannot be read"));
  std::string a = t.run("a", 1, json::array({finding("crash", "ping", "c.json")}));
  fs::remove(fs::path(a) / "c.json");
  CHECK_THAT(message({a}, out), Catch::Contains("a/c.json: the reproducer listed in"));
  std::string b = t.run("b", 1, json::array({json{{"oracle", "crash"}, {"method", "ping"}}}));
  CHECK_THAT(message({b}, out), Catch::Contains("b/report.json: /findings/0: \"signature\" is missing"));
  std::string c = t.run("c", 1, json::array());
  CHECK_THAT(message({c}, c), Catch::Contains("is the --out folder"));
  CHECK_THAT(message({}, out), Catch::Contains("nothing to merge"));
}
