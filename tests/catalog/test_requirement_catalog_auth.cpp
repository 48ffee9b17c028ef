// Checks the authorization rows of the requirement catalogs against AUTH-CHECKLIST.md: all 107 rows,
// each in exactly the protocol versions its Ver column names (2024-11-05 has none), in the area of
// its section, with the level of its keyword, and the testability of its Test column.
#include "harness/scenario/requirements.hpp"
#include "tests/catalog/checklist_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>

namespace {

using nlohmann::json;
using namespace mcpspec::test::checklist;

const std::vector<std::string> kAuthVersions = {"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"};

// §0-§4 rows by id (§5 onwards are notes); section is the heading number ("1", "2a", ...).
std::map<std::string, SectionRow> auth_rows() {
  return rows_by_section(MCPSPEC_SHARED_DIR "/mcp-spec/AUTH-CHECKLIST.md", 4, 8, "AUTH-[0-9]+");
}

// The Ver column read independently of the generator: parenthesised text is a remark; "X+" means X
// and every later version; a bare "X" (with or without "only") means X alone; parts separated by ";"
// add up.
std::set<std::string> versions_for(const std::string& ver) {
  static const std::regex paren(R"(\([^()]*\))"), marker(R"(([0-9]{2}-[0-9]{2})(\+)?)");
  const std::string outside = std::regex_replace(ver, paren, " ");
  std::set<std::string> out;
  for (std::sregex_iterator it(outside.begin(), outside.end(), marker), end; it != end; ++it) {
    bool started = false;
    for (const auto& v : kAuthVersions) {
      if (v.substr(5) == (*it)[1].str()) {
        out.insert(v);
        started = (*it)[2].matched;
        continue;
      }
      if (started) out.insert(v);
    }
  }
  return out;
}

std::string area_for(const std::string& section) {
  if (section == "1") return "auth-rs";
  if (section == "3") return "auth-as";
  if (starts_with(section, "2")) return "auth-client";
  return "auth";  // §0 applicability and §4 cross-cutting
}

}  // namespace

TEST_CASE("auth catalog: every AUTH-CHECKLIST row in the versions and area and at the level it names", "[catalog][auth]") {
  const auto rows = auth_rows();
  REQUIRE(rows.size() == 107);
  std::map<std::string, std::map<std::string, json>> by_id;  // id -> version -> entry
  for (const std::string v : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}) {
    const json cat = json::parse(read_text(std::string(MCPSPEC_SOURCE_DIR "/scenarios/requirements/") + v + ".json"));
    for (const auto& r : cat["requirements"]) {
      const std::string id = r["id"];
      if (!starts_with(id, "AUTH-")) continue;
      INFO(id << " in " << v);
      CHECK(by_id[id].count(v) == 0);
      by_id[id][v] = r;
      CHECK(cat["areas"].contains(r["area"].get<std::string>()));
    }
  }
  CHECK(by_id.size() == rows.size());
  for (const auto& [id, row] : rows) {
    INFO(id << " Ver=" << row.ver << " KW=" << row.keyword << " Test=" << row.test);
    REQUIRE(by_id.count(id) == 1);
    std::set<std::string> got;
    for (const auto& [v, _] : by_id[id]) got.insert(v);
    CHECK(got == versions_for(row.ver));
    CHECK(got.count("2024-11-05") == 0);

    std::string kw = row.keyword;
    if (starts_with(kw, "REQUIRED")) kw = "MUST";  // REQUIRED counts as MUST
    const std::string level = level_for_keyword(kw);
    const auto [testable, heuristic] = testability(row.test);
    for (const auto& [v, r] : by_id[id]) {
      INFO("in " << v);
      CHECK(r["keyword"] == row.keyword);
      CHECK(r["area"] == area_for(row.section));
      CHECK(r["testable"] == testable);
      CHECK(r["heuristic"] == heuristic);
      // "SHOULD → MAY" rows (registration) are MAY from 2025-11-25 on, SHOULD before.
      const bool demoted = contains(row.keyword, "→ MAY") && v >= "2025-11-25";
      CHECK(r["level"] == (demoted ? "MAY" : level));
      const std::string section = r["section"];
      CHECK((v == "2026-07-28" ? contains(section, "basic/authorization/") || contains(section, "2025-")
                               : contains(section, "basic/authorization")));
    }
  }
  // The version deltas of §5, spot-checked.
  CHECK(by_id["AUTH-25"].size() == 1);  // 03-26 only: expiry and rotation
  CHECK(by_id["AUTH-14"].size() == 1);  // 07-28 only: no offline_access in challenges
  CHECK(by_id["AUTH-05"].count("2025-03-26") == 0);
  CHECK(by_id["AUTH-05"].count("2025-06-18") == 1);
  CHECK(by_id["AUTH-99"]["2025-06-18"]["level"] == "SHOULD");
  CHECK(by_id["AUTH-99"]["2026-07-28"]["level"] == "MAY");
}

TEST_CASE("auth catalog: the embedded catalog answers AUTH rows and their areas", "[catalog][auth]") {
  const auto& catalog = mcpspec::scenario::RequirementCatalog::builtin();
  auto prm = catalog.find("2025-11-25", "AUTH-09");
  REQUIRE(prm);
  CHECK(prm->level == mcpspec::Level::Must);
  CHECK(prm->testable == "server");
  CHECK(catalog.area_title("2025-06-18", "auth-rs") == "Authorization: MCP server as resource server");
  CHECK_FALSE(catalog.find("2024-11-05", "AUTH-04"));
  CHECK(catalog.find("2026-07-28", "AUTH-97"));
}
