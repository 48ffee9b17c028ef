#include "output_section.hpp"

#include <catch2/catch.hpp>

using namespace chant;

TEST_CASE("first output adds an Output section at the end", "[chant][output]") {
  CHECK(append_output("# Feature Implementation\n\nSome initial content...\n",
                      "Implementation complete. All tests passing.") ==
        "# Feature Implementation\n\nSome initial content...\n\n## Output\n\n"
        "Implementation complete. All tests passing.\n");
}

TEST_CASE("later output joins the existing trailing Output section", "[chant][output]") {
  std::string body = append_output("# T\n", "first");
  body = append_output(body, "second\n");
  CHECK(body == "# T\n\n## Output\n\nfirst\n\nsecond\n");
}

TEST_CASE("output is verbatim: no timestamp, truncation or code fence", "[chant][output]") {
  std::string big(100000, 'z');
  std::string body = append_output("", big + "\n  indented\n```");
  CHECK(body == "## Output\n\n" + big + "\n  indented\n```\n");
}

TEST_CASE("a section after Output gets a new Output heading", "[chant][output]") {
  std::string body = "# T\n\n## Output\n\nold\n\n## Review\n\nnotes\n";
  CHECK(append_output(body, "new") == body + "\n## Output\n\nnew\n");
  // Level-3 headings inside the Output section do not end it.
  std::string deeper = "# T\n\n## Output\n\n### Run 1\nok\n";
  CHECK(append_output(deeper, "run 2") == deeper + "\nrun 2\n");
}

TEST_CASE("trailing blank lines are normalised and code blocks ignored", "[chant][output]") {
  CHECK(append_output("# T\n\n\n\n", "x") == "# T\n\n## Output\n\nx\n");
  CHECK(append_output("```\n## Output\n```\n", "x") == "```\n## Output\n```\n\n## Output\n\nx\n");
}
