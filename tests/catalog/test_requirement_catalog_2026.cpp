// Checks the 2026-07-28 requirement catalog against its own checklist (CHECKLIST-2026-07-28.md):
// every row once, in the area of its section, with the level of its keyword and the testability
// of its Test column; the counts of §27; the removed ids of §26 (each 2025-11-25 id is carried
// over or removed); the ambiguity notes of §28, attached to the rows they concern.
#include "harness/scenario/requirements.hpp"
#include "tests/catalog/checklist_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace {

using nlohmann::json;
using namespace mcpspec::test::checklist;

const std::string kVersion = "2026-07-28";

json catalog_of(const std::string& version) {
  return json::parse(read_text(std::string(MCPSPEC_SOURCE_DIR "/scenarios/requirements/") + version + ".json"));
}

using Row = SectionRow;

// Rows of §1-§24 by id (§25 points elsewhere; §26 lists removed ids).
std::map<std::string, Row> checklist_rows() {
  return rows_by_section(MCPSPEC_SHARED_DIR "/mcp-spec/CHECKLIST-2026-07-28.md", 24, 6, "[A-Z]+(?:-[A-Z]+)?-[0-9]+");
}

// §27: rows per section.
std::map<std::string, int> section_counts() {
  std::istringstream in(read_text(MCPSPEC_SHARED_DIR "/mcp-spec/CHECKLIST-2026-07-28.md"));
  static const std::regex count(R"(^\| ([0-9]+[a-z]?)\. [^|]* \| ([0-9]+) \|)");
  std::map<std::string, int> out;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (starts_with(line, "## 27.")) inside = true;
    else if (inside && starts_with(line, "## ")) break;
    std::smatch m;
    if (inside && std::regex_search(line, m, count)) out[m[1]] = std::stoi(m[2]);
  }
  return out;
}

std::string modern_level(std::string keyword) {
  // The checklist's legend: REQUIRED counts as MUST, RECOMMENDED as SHOULD.
  for (auto [from, to] : {std::pair<std::string, std::string>{"REQUIRED", "MUST"}, {"RECOMMENDED", "SHOULD"}}) {
    for (size_t p; (p = keyword.find(from)) != std::string::npos;) keyword.replace(p, from.size(), to);
  }
  return level_for_keyword(keyword);
}

}  // namespace

TEST_CASE("2026-07-28 catalog: every checklist row once, with its level and testability", "[catalog][2026]") {
  const json cat = catalog_of(kVersion);
  REQUIRE(cat["protocol"] == kVersion);
  REQUIRE(cat["format"] == 1);
  const auto rows = checklist_rows();
  REQUIRE(rows.size() == 362);
  std::set<std::string> seen;
  std::map<std::string, std::string> area_of_section;
  for (const auto& r : cat["requirements"]) {
    const std::string id = r["id"];
    INFO(id);
    CHECK(seen.insert(id).second);
    for (const char* field : {"area", "keyword", "level", "summary", "section", "testable"}) {
      CHECK(r[field].is_string());
      CHECK_FALSE(r[field].get<std::string>().empty());
    }
    CHECK(cat["areas"].contains(r["area"].get<std::string>()));
    if (starts_with(id, "MCPSPEC-")) {
      CHECK(r["area"] == "harness");
      continue;
    }
    if (starts_with(id, "AUTH-")) continue;  // AUTH-CHECKLIST.md rows: test_requirement_catalog_auth.cpp
    REQUIRE(rows.count(id) == 1);
    const Row& row = rows.at(id);
    CHECK(r["keyword"] == row.keyword);
    CHECK(r["level"] == modern_level(row.keyword));
    // One area per section of the checklist, and one section per area.
    auto [it, fresh] = area_of_section.emplace(row.section, r["area"].get<std::string>());
    CHECK(it->second == r["area"].get<std::string>());
    const auto [testable, heuristic] = testability(row.test);
    CHECK(r["testable"] == testable);
    CHECK(r["heuristic"] == heuristic);
  }
  for (const auto& [id, row] : rows) {
    INFO(id);
    CHECK(seen.count(id) == 1);
  }
  std::set<std::string> areas;
  for (const auto& [section, area] : area_of_section) CHECK(areas.insert(area).second);
  // §27's counts, per section and in total.
  std::map<std::string, int> got;
  for (const auto& [id, row] : rows) ++got[row.section];
  CHECK(got == section_counts());
}

TEST_CASE("2026-07-28 catalog: each 2025-11-25 id is carried over or listed as removed", "[catalog][2026]") {
  const json modern = catalog_of(kVersion);
  const json legacy = catalog_of("2025-11-25");
  std::set<std::string> present, removed;
  for (const auto& r : modern["requirements"]) present.insert(r["id"]);
  REQUIRE(modern["removed"].is_array());
  for (const auto& group : modern["removed"]) {
    REQUIRE_FALSE(group["ids"].empty());
    for (const auto& id : group["ids"]) {
      INFO(id);
      CHECK(removed.insert(id).second);
      CHECK(present.count(id) == 0);
    }
    for (const auto& successor : group["successors"]) {
      const std::string s = successor;
      INFO(s);
      CHECK((present.count(s) == 1 || s.ends_with("-*")));
    }
  }
  for (const auto& r : legacy["requirements"]) {
    const std::string id = r["id"];
    INFO(id);
    CHECK((present.count(id) + removed.count(id)) == 1);
  }
  // The handshake, ping and sessions are gone.
  for (const char* id : {"LC-01", "LC-10", "PING-01", "SESS-01", "TASK-31", "RES-03"}) CHECK(removed.count(id) == 1);
}

TEST_CASE("2026-07-28 catalog: ambiguities A1-A19 are notes on the rows they concern", "[catalog][2026]") {
  const json cat = catalog_of(kVersion);
  std::map<std::string, std::set<std::string>> lenient;  // row -> ambiguities it names
  std::set<std::string> ids;
  for (const auto& r : cat["requirements"]) {
    ids.insert(r["id"]);
    if (r.contains("lenient"))
      for (const auto& a : r["lenient"]) lenient[r["id"]].insert(a);
  }
  REQUIRE(cat["ambiguities"].size() == 19);
  for (int n = 1; n <= 19; ++n) {
    const std::string key = "A" + std::to_string(n);
    INFO(key);
    REQUIRE(cat["ambiguities"].contains(key));
    const json& note = cat["ambiguities"][key];
    CHECK_FALSE(note["note"].get<std::string>().empty());
    REQUIRE_FALSE(note["requirements"].empty());
    for (const auto& id : note["requirements"]) {
      INFO(id);
      CHECK(ids.count(id) == 1);
      CHECK(lenient[id].count(key) == 1);
    }
  }
  for (const auto& [id, keys] : lenient) {
    for (const auto& key : keys) {
      INFO(id << " " << key);
      const json& concerned = cat["ambiguities"][key]["requirements"];
      CHECK(std::find(concerned.begin(), concerned.end(), id) != concerned.end());
    }
  }
  // Two examples: the HTTP error for missing _meta (A3), the unenforced "at least one" (A15).
  CHECK(lenient["META-02"].count("A3") == 1);
  CHECK(lenient["MRTR-03"].count("A15") == 1);
}

TEST_CASE("2026-07-28 catalog: the embedded catalog answers for the new version", "[catalog][2026]") {
  const auto& catalog = mcpspec::scenario::RequirementCatalog::builtin();
  auto versions = catalog.versions();
  CHECK(std::find(versions.begin(), versions.end(), kVersion) != versions.end());
  auto mrtr = catalog.find(kVersion, "MRTR-12");
  REQUIRE(mrtr);
  CHECK(mrtr->level == mcpspec::Level::Must);
  CHECK(mrtr->testable == "client");
  CHECK(catalog.level_of(kVersion, "META-04") == mcpspec::Level::Should);
  CHECK_FALSE(catalog.find(kVersion, "PING-01"));
  CHECK(catalog.find("2025-11-25", "PING-01"));
  CHECK(catalog.area_title(kVersion, "mrtr") == "Multi round-trip requests");
}

TEST_CASE("the committed requirement catalogs are what build_catalog.py produces", "[catalog]") {
  if (std::system("python3 --version > /dev/null 2>&1") != 0) {
    WARN("python3 not found: catalog freshness not checked");
    return;
  }
  const std::string command = "python3 '" MCPSPEC_SOURCE_DIR "/tools/catalog/build_catalog.py' --check > /dev/null";
  CHECK(std::system(command.c_str()) == 0);
}
