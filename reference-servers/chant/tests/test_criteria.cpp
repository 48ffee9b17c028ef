#include "criteria.hpp"

#include <catch2/catch.hpp>

using namespace chant;

TEST_CASE("criteria are counted in the whole body when there is no section", "[chant][criteria]") {
  auto c = count_criteria("# T\n\n- [ ] one\n- [x] two\n* [X] three\n  + [ ] nested four\n"
                          "- [] not a box\n-[ ] no space\n- [y] other mark\n");
  CHECK(c.total == 4);
  CHECK(c.checked == 2);
  CHECK(c.unchecked == 2);
  CHECK(c.unchecked_items == std::vector<std::string>{"- [ ] one", "+ [ ] nested four"});
  CHECK_FALSE(c.from_section);
}

TEST_CASE("an Acceptance Criteria section limits what counts", "[chant][criteria]") {
  auto c = count_criteria(
      "# T\n\n## Notes\n- [ ] not a criterion\n\n## Acceptance Criteria\n\n- [x] Feature works\n"
      "- [ ] Tests added\n### Sub-list\n- [ ] Documentation updated\n## Output\n- [ ] also not\n");
  CHECK(c.from_section);
  CHECK(c.total == 3);
  CHECK(c.checked == 1);
  CHECK(c.unchecked_items ==
        std::vector<std::string>{"- [ ] Tests added", "- [ ] Documentation updated"});
}

TEST_CASE("checkboxes inside code fences do not count", "[chant][criteria]") {
  auto c = count_criteria("- [x] real\n```md\n- [ ] example\n```\n~~~~\n- [ ] x\n```\n- [ ] still code\n~~~~\n");
  CHECK(c.total == 1);
  CHECK(c.checked == 1);
}

TEST_CASE("no criteria at all", "[chant][criteria]") {
  auto c = count_criteria("Just text.\n");
  CHECK(c.total == 0);
  CHECK(c.unchecked == 0);
  CHECK(c.unchecked_items.empty());
}

TEST_CASE("CRLF bodies are counted the same", "[chant][criteria]") {
  auto c = count_criteria("## acceptance criteria\r\n- [ ] a\r\n- [x] b\r\n");
  CHECK(c.total == 2);
  CHECK(c.unchecked_items == std::vector<std::string>{"- [ ] a"});
}
