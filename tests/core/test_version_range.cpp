// VersionRange: every expression form, lists, open bounds, versions mcpspec does not know, and
// clear errors for malformed expressions.
#include "harness/protocol/versions.hpp"

#include <catch2/catch.hpp>

#include <string>

using mcpspec::protocol::is_modern_version;
using mcpspec::protocol::is_runnable_version;
using mcpspec::protocol::runnable_versions;
using mcpspec::protocol::is_known_version;
using mcpspec::protocol::known_versions;
using mcpspec::protocol::latest_version;
using mcpspec::protocol::VersionRange;
using nlohmann::json;

namespace {

VersionRange R(const json& e) { return VersionRange::parse(e); }

std::string parse_error(const json& e) {
  try {
    VersionRange::parse(e);
  } catch (const std::invalid_argument& x) {
    return x.what();
  }
  FAIL("accepted " << e.dump());
  return "";
}

}  // namespace

TEST_CASE("versions: the known list is ordered and holds the default", "[core][versions]") {
  const auto& v = known_versions();
  REQUIRE(v.size() >= 4);  // the initialize-based versions; 2026-07-28 is in modern_versions()
  for (std::size_t i = 1; i < v.size(); ++i) CHECK(v[i - 1] < v[i]);
  CHECK(latest_version() == v.back());
  CHECK(is_known_version("2025-06-18"));
  CHECK_FALSE(is_known_version("2025-06-19"));
  CHECK_FALSE(is_known_version(""));
}

TEST_CASE("versions: 2026-07-28 is runnable but never the default", "[core][versions]") {
  // The handshake versions stay the known ones; the stateless one is run only when asked for.
  CHECK(is_modern_version("2026-07-28"));
  CHECK_FALSE(is_known_version("2026-07-28"));
  CHECK(latest_version() == "2025-11-25");
  CHECK(is_runnable_version("2026-07-28"));
  CHECK(is_runnable_version("2025-06-18"));
  CHECK_FALSE(is_runnable_version("2099-01-01"));
  for (const auto& v : known_versions()) CHECK_FALSE(is_modern_version(v));
  // "all" runs oldest first, the stateless version last.
  const auto& all = runnable_versions();
  REQUIRE(all.size() == known_versions().size() + 1);
  CHECK(all.back() == "2026-07-28");
  CHECK(all.front() == known_versions().front());
}

TEST_CASE("version range: all, exact and comparison forms", "[core][versions]") {
  VersionRange def;
  CHECK(def.text() == "all");
  CHECK(def.contains("1999-01-01"));

  auto all = R("all");
  CHECK(all.text() == "all");
  CHECK(all.contains("2024-11-05"));
  CHECK(all.contains("2099-12-31"));

  auto exact = R("2025-06-18");
  CHECK(exact.contains("2025-06-18"));
  CHECK_FALSE(exact.contains("2025-03-26"));
  CHECK_FALSE(exact.contains("2025-11-25"));

  auto ge = R(">=2025-03-26");
  CHECK_FALSE(ge.contains("2024-11-05"));
  CHECK(ge.contains("2025-03-26"));
  CHECK(ge.contains("2025-11-25"));

  auto gt = R(">2025-03-26");
  CHECK_FALSE(gt.contains("2025-03-26"));
  CHECK(gt.contains("2025-06-18"));

  auto le = R("<=2025-03-26");
  CHECK(le.contains("2024-11-05"));
  CHECK(le.contains("2025-03-26"));
  CHECK_FALSE(le.contains("2025-06-18"));

  auto lt = R("<2025-03-26");
  CHECK(lt.contains("2024-11-05"));
  CHECK_FALSE(lt.contains("2025-03-26"));
}

TEST_CASE("version range: spans and open bounds", "[core][versions]") {
  auto span = R("2024-11-05..2025-06-18");
  CHECK(span.contains("2024-11-05"));
  CHECK(span.contains("2025-03-26"));
  CHECK(span.contains("2025-06-18"));
  CHECK_FALSE(span.contains("2025-11-25"));
  CHECK_FALSE(span.contains("2024-11-04"));

  auto from = R("2025-03-26..");
  CHECK_FALSE(from.contains("2024-11-05"));
  CHECK(from.contains("2025-03-26"));
  CHECK(from.contains("2099-01-01"));

  auto upto = R("..2025-03-26");
  CHECK(upto.contains("2000-01-01"));
  CHECK(upto.contains("2025-03-26"));
  CHECK_FALSE(upto.contains("2025-06-18"));

  // Spaces around the parts are tolerated.
  auto spaced = R(" 2024-11-05 .. 2025-03-26 ");
  CHECK(spaced.contains("2025-03-26"));
  CHECK_FALSE(spaced.contains("2025-06-18"));
  CHECK(R(">= 2025-06-18").contains("2025-11-25"));
}

TEST_CASE("version range: versions mcpspec does not know compare as dates", "[core][versions]") {
  CHECK(R(">=2025-03-26").contains("2026-01-01"));
  CHECK_FALSE(R("<2025-03-26").contains("2025-04-01"));
  CHECK(R("2025-01-01..2025-12-31").contains("2025-07-04"));
}

TEST_CASE("version range: arrays are any-of", "[core][versions]") {
  auto r = R(json::array({"2024-11-05", ">=2025-11-25"}));
  CHECK(r.contains("2024-11-05"));
  CHECK_FALSE(r.contains("2025-03-26"));
  CHECK_FALSE(r.contains("2025-06-18"));
  CHECK(r.contains("2025-11-25"));
  CHECK(r.text() == "2024-11-05, >=2025-11-25");

  // "all" anywhere in the list means all.
  auto with_all = R(json::array({"2024-11-05", "all"}));
  CHECK(with_all.text() == "all");
  CHECK(with_all.contains("2025-06-18"));

  auto single = R(json::array({"2025-06-18"}));
  CHECK(single.contains("2025-06-18"));
  CHECK_FALSE(single.contains("2025-11-25"));
}

TEST_CASE("version range: malformed expressions throw with a readable message", "[core][versions]") {
  CHECK_THAT(parse_error("latest"), Catch::Contains("\"latest\" is not a version range"));
  CHECK_THAT(parse_error("latest"), Catch::Contains(">=2025-03-26"));  // says what would be right
  CHECK_THAT(parse_error(">=2025-6-18"), Catch::Contains("\">=2025-6-18\" is not a version range"));
  CHECK_THAT(parse_error("2025-06-18..banana"), Catch::Contains("is not a version range"));
  CHECK_THAT(parse_error("=>2025-06-18"), Catch::Contains("is not a version range"));
  CHECK_THAT(parse_error("2025/06/18"), Catch::Contains("is not a version range"));
  CHECK_THAT(parse_error(""), Catch::Contains("empty version range"));
  CHECK_THAT(parse_error(".."), Catch::Contains("empty version range"));
  CHECK_THAT(parse_error(">="), Catch::Contains("empty version range"));
  CHECK_THAT(parse_error(json::array()), Catch::Contains("non-empty array"));
  CHECK_THAT(parse_error(20250618), Catch::Contains("must be a string"));
  CHECK_THAT(parse_error(nullptr), Catch::Contains("must be a string"));
  CHECK_THAT(parse_error(json::array({"2025-06-18", 5})), Catch::Contains("must hold strings"));
  CHECK_THAT(parse_error(json::array({"2025-06-18", "nope"})), Catch::Contains("\"nope\" is not a version range"));
}
