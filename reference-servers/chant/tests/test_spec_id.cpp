#include "spec_id.hpp"
#include "tool_error.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

using namespace chant;

TEST_CASE("generated ids have date, next sequence and a random suffix", "[chant][id]") {
  std::mt19937 rng(42);
  std::regex shape(R"(2026-01-22-(\d{3})-[0-9a-z]{3})");
  auto first = generate_id("2026-01-22", {}, rng);
  std::smatch m;
  REQUIRE(std::regex_match(first, m, shape));
  CHECK(m[1] == "001");
  auto next = generate_id("2026-01-22", {"2026-01-22-001-abc", "2026-01-22-007-zzz",
                                         "2026-01-21-050-old", "hand-named"}, rng);
  REQUIRE(std::regex_match(next, m, shape));
  CHECK(m[1] == "008");  // other days do not count
  auto big = generate_id("2026-01-22", {"2026-01-22-999-abc"}, rng);
  CHECK(big.rfind("2026-01-22-1000-", 0) == 0);
  CHECK_FALSE(id_problem(big).has_value());
}

TEST_CASE("ids sort by date then sequence number", "[chant][id]") {
  std::vector<std::string> ids = {"2026-01-22-1000-aaa", "zeta", "2026-01-22-010-aaa",
                                  "2026-01-21-999-aaa", "2026-01-22-002-zzz", "alpha"};
  std::sort(ids.begin(), ids.end(), id_less);
  CHECK(ids == std::vector<std::string>{"2026-01-21-999-aaa", "2026-01-22-002-zzz",
                                        "2026-01-22-010-aaa", "2026-01-22-1000-aaa", "alpha",
                                        "zeta"});
}

TEST_CASE("partial ids: exact, suffix, substring, ambiguous, none", "[chant][id]") {
  std::vector<std::string> ids = {"2026-01-22-001-x7m", "2026-01-22-002-abc", "2026-01-23-001-q2w"};
  auto exact = match_id("2026-01-22-002-abc", ids);
  CHECK(exact.kind == IdMatch::Kind::Unique);
  CHECK(exact.id == "2026-01-22-002-abc");

  auto suffix = match_id("x7m", ids);
  CHECK(suffix.kind == IdMatch::Kind::Unique);
  CHECK(suffix.id == "2026-01-22-001-x7m");

  auto sub = match_id("002", ids);
  CHECK(sub.kind == IdMatch::Kind::Unique);
  CHECK(sub.id == "2026-01-22-002-abc");

  auto amb = match_id("001", ids);
  CHECK(amb.kind == IdMatch::Kind::Ambiguous);
  CHECK(amb.candidates == std::vector<std::string>{"2026-01-22-001-x7m", "2026-01-23-001-q2w"});

  CHECK(match_id("zzz", ids).kind == IdMatch::Kind::None);

  // A unique suffix wins over a wider substring match.
  std::vector<std::string> tricky = {"a-x7m", "b-x7mq"};
  auto t = match_id("x7m", tricky);
  CHECK(t.kind == IdMatch::Kind::Unique);
  CHECK(t.id == "a-x7m");
}

TEST_CASE("ids that could name another path are refused", "[chant][id][security]") {
  CHECK_FALSE(id_problem("2026-01-22-001-x7m").has_value());
  CHECK_FALSE(id_problem("my_spec.v2").has_value());
  CHECK(id_problem("") == "must not be empty");
  CHECK(id_problem("../x") == "must not contain '/'");
  CHECK(id_problem("..") == "must not contain '..'");
  CHECK(id_problem("a..b") == "must not contain '..'");
  CHECK(id_problem("/etc/passwd") == "must not be an absolute path");
  CHECK(id_problem("a\\b") == "must not contain '\\'");
  CHECK(id_problem(std::string("a\0b", 3)) == "must not contain NUL");
  CHECK(id_problem(".hidden") == "must not start with '.'");
  CHECK(id_problem("new\nline") == "must not contain control characters");
  CHECK(id_problem("sp ace").has_value());
  CHECK(id_problem(std::string(200, 'a')).has_value());
  CHECK_THROWS_AS(require_safe_id("../../etc/passwd"), ToolError);
  CHECK_THROWS_WITH(require_safe_id("a/b"), "Invalid spec id 'a/b': must not contain '/'");
}
