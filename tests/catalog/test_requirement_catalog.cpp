// Checks the requirement catalogs (scenarios/requirements/<version>.json) against the
// checklist they are derived from, so a hand edit or a generator bug that drops a row,
// puts a row in the wrong protocol version or mislabels its level is caught here.
#include "tests/catalog/checklist_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
using namespace mcpspec::test::checklist;

const std::array<std::string, 4> kVersions = {"2024-11-05", "2025-03-26", "2025-06-18",
                                               "2025-11-25"};
const std::set<std::string> kLevels = {"MUST", "SHOULD", "MAY", "INFO"};
const std::set<std::string> kTestable = {"server", "client", "both", "none"};
const std::set<std::string> kAreas = {
    "base", "jsonschema", "icons", "lifecycle", "stdio", "http-security",
    "http-client-to-server", "http-server-to-client", "http-resumability", "http-session",
    "http-version", "http-compat", "sse", "ping", "cancellation", "progress", "pagination",
    "tools", "resources", "prompts", "completion", "logging", "sampling", "elicitation",
    "roots", "tasks", "harness",
    // Authorization rows come from AUTH-CHECKLIST.md; test_requirement_catalog_auth.cpp checks them.
    "auth", "auth-rs", "auth-client", "auth-as"};
const std::set<std::string> kFields = {"id",      "area",    "keyword",  "level",
                                       "summary", "section", "testable", "heuristic"};
const std::set<std::string> kHarnessIds = {"MCPSPEC-SCHEMA", "MCPSPEC-ALIVE",
                                           "MCPSPEC-RESPONSE"};

json load_catalog(const std::string& version) {
  const std::string path =
      std::string(MCPSPEC_SOURCE_DIR "/scenarios/requirements/") + version + ".json";
  try {
    return json::parse(read_text(path));
  } catch (const json::parse_error& e) {
    FAIL(path << ": " << e.what());
  }
  return {};
}

// One checklist table row: the cells the catalog is derived from.
struct ChecklistRow {
  std::string keyword, test, ver;
};

std::map<std::string, ChecklistRow> load_checklist() {
  const std::string path = MCPSPEC_SHARED_DIR "/mcp-spec/CHECKLIST.md";
  std::istringstream in(read_text(path));
  static const std::regex row_re(R"(^\| ([A-Z]+(?:-[A-Z]+)?-[0-9]+) \|)");
  std::map<std::string, ChecklistRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, row_re)) continue;
    auto cells = split_cells(line);
    REQUIRE(cells.size() == 6);
    rows[m[1]] = ChecklistRow{cells[1], cells[4], cells[5]};
  }
  return rows;
}

// Rows of AUTH-CHECKLIST.md live in the same catalogs but are checked against their own checklist.
bool is_auth_row(const std::string& id) { return starts_with(id, "AUTH-"); }

std::string strip_bold(std::string s) {
  for (size_t p; (p = s.find("**")) != std::string::npos;) s.erase(p, 2);
  return s;
}

std::map<std::string, std::map<std::string, json>> load_all_by_id() {
  std::map<std::string, std::map<std::string, json>> by_id;  // id -> version -> row
  for (const auto& v : kVersions) {
    const json cat = load_catalog(v);  // named: iterating a member of a temporary would dangle
    for (const auto& r : cat["requirements"]) by_id[r["id"].get<std::string>()][v] = r;
  }
  return by_id;
}

std::set<std::string> versions_of(const std::map<std::string, json>& per_version) {
  std::set<std::string> out;
  for (const auto& [v, _] : per_version) out.insert(v);
  return out;
}

}  // namespace

TEST_CASE("requirement catalogs parse and every row has the documented fields", "[catalog]") {
  for (const auto& version : kVersions) {
    INFO("catalog " << version);
    json cat = load_catalog(version);
    REQUIRE(cat.is_object());
    CHECK(cat.value("format", 0) == 1);
    CHECK(cat.value("protocol", "") == version);
    REQUIRE(cat.contains("source"));
    CHECK(contains(cat["source"].get<std::string>(), "b0f60ba5409db7a6582440a7b473cc0398890f15"));
    REQUIRE(cat["areas"].is_object());
    for (const auto& [area, title] : cat["areas"].items()) {
      CHECK(kAreas.count(area) == 1);
      CHECK(title.is_string());
    }
    REQUIRE(cat["requirements"].is_array());
    REQUIRE(cat["requirements"].size() > 100);

    std::set<std::string> ids, used_areas;
    for (const auto& r : cat["requirements"]) {
      REQUIRE(r.is_object());
      std::set<std::string> keys;
      for (const auto& [k, _] : r.items()) keys.insert(k);
      INFO("row " << r.dump());
      CHECK(keys == kFields);
      if (keys != kFields) continue;
      for (const char* k : {"id", "area", "keyword", "level", "summary", "section", "testable"})
        REQUIRE(r[k].is_string());
      REQUIRE(r["heuristic"].is_boolean());

      const std::string id = r["id"].get<std::string>(), summary = r["summary"].get<std::string>();
      CHECK(ids.insert(id).second);  // unique within the version
      CHECK(kLevels.count(r["level"]) == 1);
      CHECK(kTestable.count(r["testable"]) == 1);
      CHECK(kAreas.count(r["area"]) == 1);
      CHECK(cat["areas"].contains(r["area"].get<std::string>()));
      used_areas.insert(r["area"].get<std::string>());
      CHECK(!r["keyword"].get<std::string>().empty());
      CHECK(!r["section"].get<std::string>().empty());
      CHECK(!summary.empty());
      CHECK(summary.size() <= 240);
      CHECK(summary.find('\n') == std::string::npos);
      CHECK((r["area"] == "harness") == starts_with(id, "MCPSPEC-"));
    }
    // No area is listed that no row of this version uses.
    CHECK(used_areas.size() == cat["areas"].size());
    // Our own rules hold in every version, as MUSTs.
    for (const auto& h : kHarnessIds) {
      INFO(h);
      CHECK(ids.count(h) == 1);
    }
    for (const auto& r : cat["requirements"])
      if (kHarnessIds.count(r.value("id", ""))) CHECK(r["level"] == "MUST");
  }
}

TEST_CASE("every checklist id appears in some version and no catalog invents ids", "[catalog]") {
  const auto checklist = load_checklist();
  REQUIRE(checklist.size() == 280);
  const auto by_id = load_all_by_id();
  for (const auto& [id, _] : checklist) {
    INFO(id);
    CHECK(by_id.count(id) == 1);
  }
  for (const auto& [id, _] : by_id) {
    INFO(id);
    CHECK((checklist.count(id) == 1 || kHarnessIds.count(id) == 1 || is_auth_row(id)));
  }
  for (const auto& h : kHarnessIds) CHECK(versions_of(by_id.at(h)).size() == kVersions.size());
}

TEST_CASE("rows exist exactly in the protocol versions the checklist's Ver column names", "[catalog]") {
  const auto checklist = load_checklist();
  const auto by_id = load_all_by_id();
  const std::set<std::string> all(kVersions.begin(), kVersions.end());
  const std::set<std::string> from0326 = {"2025-03-26", "2025-06-18", "2025-11-25"};
  const std::set<std::string> from0618 = {"2025-06-18", "2025-11-25"};

  for (const auto& [id, row] : checklist) {
    if (!by_id.count(id)) continue;  // reported by the test above
    const std::string ver = strip_bold(row.ver);
    const auto got = versions_of(by_id.at(id));
    INFO(id << " Ver=" << row.ver);
    if (starts_with(ver, "all")) {
      CHECK(got == all);
    } else if (starts_with(ver, "03-26 only")) {
      CHECK(got == std::set<std::string>{"2025-03-26"});
    } else if (starts_with(ver, "03-26, 06-18 only")) {
      CHECK(got == std::set<std::string>({"2025-03-26", "2025-06-18"}));
    } else if (starts_with(ver, "03-26+")) {
      CHECK(got == from0326);
    } else if (starts_with(ver, "06-18+")) {
      if (contains(ver, "SHOULD in 2024-11-05") || contains(ver, "SHOULD before"))
        CHECK(got == all);  // a MUST from 2025-06-18 that was a SHOULD before
      else if (contains(ver, "; 03-26:"))
        CHECK(got == from0326);  // an earlier, looser form existed in 2025-03-26
      else
        CHECK(got == from0618);
    } else if (starts_with(ver, "2024-11-05")) {
      CHECK(got == std::set<std::string>{"2024-11-05"});
    } else if (starts_with(ver, "11-25")) {
      // New in 2025-11-25, unless the note says it was a SHOULD in 2025-06-18.
      CHECK(got == (contains(ver, "SHOULD in 06-18") ? from0618
                                                    : std::set<std::string>{"2025-11-25"}));
    } else {
      // Free-text Ver cells: decided per row in tools/catalog/version_overrides.txt.
      CHECK(!got.empty());
      CHECK(got.count("2024-11-05") + got.count("2025-11-25") + got.count("2025-06-18") > 0);
    }
  }

  // Spot checks named in the task: batching is 2025-03-26 only; HTTP+SSE is 2024-11-05 only.
  CHECK(versions_of(by_id.at("BASE-16")) == std::set<std::string>{"2025-03-26"});
  CHECK(versions_of(by_id.at("BASE-17")) == std::set<std::string>{"2025-03-26"});
  CHECK(versions_of(by_id.at("SSE-04")) == std::set<std::string>{"2024-11-05"});
  CHECK(versions_of(by_id.at("TASK-01")) == std::set<std::string>{"2025-11-25"});
  CHECK(versions_of(by_id.at("HTTP-23")) == std::set<std::string>({"2025-03-26", "2025-06-18"}));
  CHECK(versions_of(by_id.at("HTTP-12")) == from0326);  // 2025-03-26 form also allows a batch
}

TEST_CASE("levels follow the keyword, with per-version strength changes", "[catalog]") {
  const auto checklist = load_checklist();
  const auto by_id = load_all_by_id();
  for (const auto& [id, per_version] : by_id) {
    if (!checklist.count(id)) continue;
    const auto& row = checklist.at(id);
    const std::string expected = level_for_keyword(row.keyword);
    const bool strength_changes = contains(row.ver, "SHOULD");
    for (const auto& [v, r] : per_version) {
      INFO(id << " in " << v << " keyword=" << row.keyword << " Ver=" << row.ver);
      CHECK(r["keyword"] == row.keyword);  // kept as written
      if (v == "2025-11-25" || !strength_changes) {
        CHECK(r["level"] == expected);
      } else {
        // Rows noted "SHOULD before / in <version>": weaker there, never stronger.
        CHECK((r["level"] == expected || (r["level"] == "SHOULD" && expected == "MUST")));
      }
    }
  }
  // The documented strength changes.
  for (const auto& id : {"LC-14", "LC-15"}) {
    INFO(id);
    CHECK(by_id.at(id).at("2024-11-05")["level"] == "SHOULD");
    CHECK(by_id.at(id).at("2025-03-26")["level"] == "SHOULD");
    CHECK(by_id.at(id).at("2025-06-18")["level"] == "MUST");
    CHECK(by_id.at(id).at("2025-11-25")["level"] == "MUST");
  }
  CHECK(by_id.at("ELI-09").at("2025-06-18")["level"] == "SHOULD");
  CHECK(by_id.at("ELI-09").at("2025-11-25")["level"] == "MUST");
  // Mixed and lowercase keywords.
  CHECK(by_id.at("BASE-16").at("2025-03-26")["level"] == "MUST");  // MUST (receive) / MAY (send)
  CHECK(by_id.at("HTTP-18").at("2025-11-25")["level"] == "SHOULD");  // MAY / SHOULD
  CHECK(by_id.at("CMP-02").at("2025-11-25")["level"] == "SHOULD");  // (lc) must
  CHECK(by_id.at("LC-18").at("2025-11-25")["level"] == "INFO");  // —
  CHECK(by_id.at("SSE-06").at("2024-11-05")["level"] == "INFO");  // (no keyword)
}

TEST_CASE("testable and heuristic follow the checklist's Test column", "[catalog]") {
  const auto checklist = load_checklist();
  const auto by_id = load_all_by_id();
  for (const auto& [id, per_version] : by_id) {
    if (!checklist.count(id)) continue;
    const auto tokens = mode_tokens(checklist.at(id).test);
    bool s = false, c = false, b = false, tilde = false;
    for (const auto& t : tokens) {
      s |= t[0] == 'S';
      c |= t[0] == 'C';
      b |= t[0] == 'B';
      tilde |= t.size() > 1;
    }
    const std::string expected = (b || (s && c)) ? "both" : s ? "server" : c ? "client" : "none";
    for (const auto& [v, r] : per_version) {
      INFO(id << " in " << v << " Test=" << checklist.at(id).test);
      CHECK(r["testable"] == expected);
      CHECK(r["heuristic"] == tilde);
      CHECK(r["heuristic"] == contains(checklist.at(id).test, "~"));
    }
  }
  CHECK(by_id.at("LC-01").at("2024-11-05")["testable"] == "both");  // "B (client: ...; server: ...)"
  CHECK(by_id.at("HTTP-04").at("2025-11-25")["testable"] == "server");  // "N (S~ if ...)"
  CHECK(by_id.at("ICON-01").at("2025-11-25")["testable"] == "none");
}

TEST_CASE("rows per area over all versions match COUNTS.md", "[catalog]") {
  std::map<std::string, int> expected;  // area title -> rows
  std::istringstream in(read_text(MCPSPEC_SHARED_DIR "/mcp-spec/COUNTS.md"));
  std::string line;
  static const std::regex count_re(R"(^\| ([^|]+?) \| ([0-9]+) \|)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, count_re)) expected[m[1]] = std::stoi(m[2]);
  }
  REQUIRE(expected.count("**Total**") == 1);

  std::map<std::string, std::string> title_of;      // area id -> title
  std::map<std::string, std::set<std::string>> ids;  // area id -> ids over all versions
  for (const auto& v : kVersions) {
    json cat = load_catalog(v);
    for (const auto& [area, title] : cat["areas"].items()) {
      if (title_of.count(area)) CHECK(title_of[area] == title.get<std::string>());
      title_of[area] = title.get<std::string>();
    }
    for (const auto& r : cat["requirements"])
      ids[r["area"].get<std::string>()].insert(r["id"].get<std::string>());
  }
  size_t total = 0;
  for (const auto& [area, title] : title_of) {
    if (area == "harness" || starts_with(area, "auth")) continue;  // not in COUNTS.md
    INFO(area << " (" << title << ")");
    REQUIRE(expected.count(title) == 1);
    CHECK(ids[area].size() == static_cast<size_t>(expected[title]));
    total += ids[area].size();
  }
  CHECK(total == static_cast<size_t>(expected["**Total**"]));
  CHECK(title_of.size() == kAreas.size());
}
