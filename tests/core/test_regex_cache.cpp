// The compiled-regex cache: a pattern is compiled once and shared, a refusal is kept, a full cache
// is emptied, and forget_compiled_regexes() (which the fuzz targets call before each input, so an
// input's coverage does not depend on the inputs before it) empties it without invalidating what
// callers hold.
#include "harness/util/bounded_regex.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <string>

using mcpspec::compiled_regex;
using mcpspec::compiled_regex_count;
using mcpspec::forget_compiled_regexes;

TEST_CASE("a pattern is compiled once and shared until the cache is emptied", "[regex]") {
  forget_compiled_regexes();
  REQUIRE(compiled_regex_count() == 0);
  auto first = compiled_regex("^ab+c$");
  CHECK(compiled_regex("^ab+c$") == first);  // the same object, not a second compilation
  CHECK(compiled_regex_count() == 1);

  forget_compiled_regexes();
  CHECK(compiled_regex_count() == 0);
  // What was handed out before still works.
  CHECK(std::regex_match("xxabbbcyy", first->finder) == false);  // anchored: the whole subject
  CHECK(std::regex_match("abbbc", first->finder));
  auto again = compiled_regex("^ab+c$");
  CHECK(again != first);  // compiled anew
  CHECK(compiled_regex_count() == 1);
}

TEST_CASE("a refused pattern is kept, a too-long one is checked again each time", "[regex]") {
  forget_compiled_regexes();
  CHECK_THROWS_AS(compiled_regex("(unclosed"), std::regex_error);
  CHECK(compiled_regex_count() == 1);
  CHECK_THROWS_AS(compiled_regex(std::string(mcpspec::kMaxRegexPattern + 1, 'a')), std::regex_error);
  CHECK(compiled_regex_count() == 1);
  forget_compiled_regexes();
}

TEST_CASE("a full cache is emptied before the next pattern goes in", "[regex]") {
  forget_compiled_regexes();
  for (std::size_t i = 0; i < mcpspec::kMaxCachedRegexes; ++i) compiled_regex("p" + std::to_string(i));
  CHECK(compiled_regex_count() == mcpspec::kMaxCachedRegexes);
  auto held = compiled_regex("p0");  // still there: a hit adds nothing
  CHECK(compiled_regex_count() == mcpspec::kMaxCachedRegexes);
  compiled_regex("one more");
  CHECK(compiled_regex_count() == 1);
  CHECK(std::regex_match("xp0x", held->finder));
  forget_compiled_regexes();
}
