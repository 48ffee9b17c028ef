#include "note_text.hpp"
#include "slug.hpp"

#include <catch2/catch.hpp>

using namespace meditation;

TEST_CASE("the title comes from front matter, else the first top heading, else the file name", "[text]") {
  CHECK(summarize_note("---\ntitle: \"Morning Meditation - Dec 1\"\n---\n# Morning\n\nBody", "x").title ==
        "Morning Meditation - Dec 1");
  CHECK(summarize_note("## Intro\n# Evening Sit\ntext", "x").title == "Evening Sit");
  CHECK(summarize_note("### Only a small heading ###\ntext", "x").title == "Only a small heading");
  CHECK(summarize_note("just text", "file-stem").title == "file-stem");
  CHECK(summarize_note("#hashtag not a heading", "stem").title == "stem");
  CHECK(summarize_note("---\nno: close\n# Real\n", "stem").title == "Real");  // unclosed front matter is text
}

TEST_CASE("the description is the first line of prose, bounded, else the default", "[text]") {
  CHECK(summarize_note("# T\n\n> Breathe in, breathe out.\n\nMore.", "x").description == "Breathe in, breathe out.");
  CHECK(summarize_note("# T\n```\ncode line\n```\n- item one\n", "x").description == "item one");
  CHECK(summarize_note("# Only a title\n", "x").description == kDefaultDescription);
  std::string long_line(500, 'a');
  auto d = summarize_note("# T\n" + long_line, "x").description;
  CHECK(d.size() == kMaxDescription + 3);
  // A cut never splits a UTF-8 sequence.
  std::string accents;
  for (int i = 0; i < 100; ++i) accents += "\xc3\xa9";
  auto cut = summarize_note(accents, "x").description;
  CHECK(cut.substr(0, cut.size() - 3).size() % 2 == 0);
}

TEST_CASE("slugs are lower-case words joined by dashes, one per folder level", "[slug]") {
  CHECK(slug_for("morning-meditation-2024-12-01.md") == "morning-meditation-2024-12-01");
  CHECK(slug_for("Journal/Morning Meditation (Dec 1).MD") == "journal/morning-meditation-dec-1");
  CHECK(slug_for("Übung.md") == "bung");
  CHECK(slug_for("!!!.md") == "note");
  CHECK(uri_for("a/b") == "meditation://note/a/b");
  CHECK(is_note_file("x.Markdown"));
  CHECK_FALSE(is_note_file("x.txt"));
  CHECK(fold_case("MiXeD Ä") == "mixed Ä");
}
