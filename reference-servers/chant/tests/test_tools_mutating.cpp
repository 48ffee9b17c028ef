// The mutating tools, called in-process against temporary projects.
#include "test_support.hpp"

#include "spec.hpp"

#include <catch2/catch.hpp>

#include <regex>

using namespace chant_test;

namespace {

chant::Spec read_spec(const Project& p, const std::string& id) {
  return chant::parse_spec(id, slurp(p.spec_path(id)));
}

}  // namespace

TEST_CASE("chant_spec_update: status and output", "[chant][tools][mutating]") {
  Project p;
  p.write_spec("u-1", "---\ntitle: Feature\nstatus: pending\ncustom_key: keep me # note\n---\n\n"
                      "# Feature Implementation\n\nSome initial content...\n");
  auto r = p.call("chant_spec_update", Json{{"id", "u-1"}, {"status", "completed"},
                                           {"output", "Implementation complete. All tests passing."}});
  CHECK_FALSE(is_error(r));
  CHECK(text_of(r) == "Updated spec: u-1");
  auto s = read_spec(p, "u-1");
  CHECK(s.status == chant::Status::Completed);
  CHECK(s.completed_at.has_value());
  CHECK(s.updated.has_value());
  CHECK(s.doc.body == "\n# Feature Implementation\n\nSome initial content...\n\n## Output\n\n"
                      "Implementation complete. All tests passing.\n");
  CHECK(s.doc.front_matter.render()[2] == "custom_key: keep me # note");

  CHECK_FALSE(is_error(p.call("chant_spec_update", Json{{"id", "u-1"}, {"output", "More."}})));
  CHECK(read_spec(p, "u-1").doc.body.find("tests passing.\n\nMore.\n") != std::string::npos);

  CHECK_FALSE(is_error(p.call("chant_spec_update", Json{{"id", "u-1"}, {"status", "in_progress"}})));
  auto back = read_spec(p, "u-1");
  CHECK(back.status == chant::Status::InProgress);
  CHECK_FALSE(back.completed_at.has_value());
}

TEST_CASE("chant_spec_update: documented refusals", "[chant][tools][mutating]") {
  Project p;
  p.add_spec("u-2", "T", "pending");
  std::string before = slurp(p.spec_path("u-2"));
  auto bad = p.call("chant_spec_update", Json{{"id", "u-2"}, {"status", "cancelled"}});
  CHECK(is_error(bad));
  CHECK(text_of(bad) ==
        "Invalid status 'cancelled': expected one of pending, in_progress, completed, failed");
  auto none = p.call("chant_spec_update", Json{{"id", "u-2"}});
  CHECK(is_error(none));
  CHECK_THAT(text_of(none), Catch::StartsWith("No updates specified"));
  CHECK(is_error(p.call("chant_spec_update", Json{{"id", "u-2"}, {"output", ""}})));
  CHECK(text_of(p.call("chant_spec_update", Json{{"status", "pending"}})) ==
        "Missing required parameter: id");
  CHECK(text_of(p.call("chant_spec_update", Json{{"id", "nope"}, {"status", "pending"}})) ==
        "Spec not found: 'nope'");
  CHECK(slurp(p.spec_path("u-2")) == before);  // nothing written by any refusal
}

TEST_CASE("chant_add: creates a spec and reports its id", "[chant][tools][mutating]") {
  Project p;
  auto r = p.call("chant_add", Json{{"description", "Add user authentication\nUse OAuth."},
                                    {"prompt", "standard"}});
  REQUIRE_FALSE(is_error(r));
  std::smatch m;
  std::string text = text_of(r);
  REQUIRE(std::regex_match(text, m, std::regex(R"(Created spec: (\d{4}-\d\d-\d\d-001-[0-9a-z]{3}))")));
  std::string id = m[1];
  auto s = read_spec(p, id);
  CHECK(s.title == "Add user authentication");
  CHECK(s.status == chant::Status::Pending);
  CHECK(s.type == "code");
  CHECK(s.prompt == "standard");
  CHECK(s.declared_id == id);
  CHECK(s.created.has_value());
  CHECK(s.doc.body == "\n# Add user authentication\n\nUse OAuth.\n");

  auto second = text_of(p.call("chant_add", Json{{"description", "Second"}}));
  CHECK(second.find("-002-") != std::string::npos);

  CHECK(text_of(p.call("chant_add", Json::object())) == "Missing required parameter: description");
  CHECK(text_of(p.call("chant_add", Json{{"description", "  \n "}})) ==
        "Invalid parameter 'description': must not be empty");
  CHECK(is_error(p.call("chant_add", Json{{"description", "x"}, {"prompt", "two\nlines"}})));
}

TEST_CASE("chant_add uses default_type from the project config", "[chant][tools][mutating]") {
  Project p;
  write_text(p.paths().config, "---\ndefault_type: docs\n---\n");
  std::string text = text_of(p.call("chant_add", Json{{"description", "Write docs"}}));
  std::string id = text.substr(std::string("Created spec: ").size());
  CHECK(read_spec(p, id).type == "docs");
}

TEST_CASE("chant_finalize: only with every criterion checked", "[chant][tools][mutating]") {
  Project p;
  p.add_spec("f-1", "Unfinished", "in_progress", "\n## Acceptance Criteria\n- [x] one\n- [ ] two\n");
  p.add_spec("f-2", "Finished", "in_progress", "\n## Acceptance Criteria\n- [x] one\n- [x] two\n");
  p.add_spec("f-3", "Not started", "pending");

  auto refused = p.call("chant_finalize", Json{{"id", "f-1"}});
  CHECK(is_error(refused));
  CHECK(text_of(refused) == "Cannot finalize spec f-1: 1 of 2 acceptance criteria unchecked: - [ ] two");
  CHECK(read_spec(p, "f-1").status == chant::Status::InProgress);

  auto ok = p.call("chant_finalize", Json{{"id", "f-2"}});
  CHECK(text_of(ok) == "Finalized spec: f-2");
  auto s = read_spec(p, "f-2");
  CHECK(s.status == chant::Status::Completed);
  CHECK(s.completed_at.has_value());
  CHECK_FALSE(is_error(p.call("chant_finalize", Json{{"id", "f-2"}})));  // idempotent

  auto pending = p.call("chant_finalize", Json{{"id", "f-3"}});
  CHECK(is_error(pending));
  CHECK_THAT(text_of(pending), Catch::Contains("status is pending"));
}

TEST_CASE("chant_resume and chant_cancel", "[chant][tools][mutating]") {
  Project p;
  p.add_spec("c-1", "Failed one", "failed");
  p.add_spec("c-2", "Done", "completed");
  CHECK(text_of(p.call("chant_resume", Json{{"id", "c-1"}})) ==
        "Resumed spec: c-1 (status is now pending)");
  CHECK(read_spec(p, "c-1").status == chant::Status::Pending);
  auto no = p.call("chant_resume", Json{{"id", "c-2"}});
  CHECK(is_error(no));
  CHECK(text_of(no) == "Cannot resume spec c-2: status is completed (only failed or in_progress "
                       "specs can be resumed)");

  CHECK(text_of(p.call("chant_cancel", Json{{"id", "c-1"}})) == "Cancelled spec: c-1");
  CHECK(read_spec(p, "c-1").status == chant::Status::Cancelled);
  auto again = p.call("chant_cancel", Json{{"id", "c-1"}});
  CHECK(is_error(again));
  CHECK(text_of(again) == "Spec c-1 is already cancelled");
}

TEST_CASE("chant_archive: completed specs only", "[chant][tools][mutating]") {
  Project p;
  p.add_spec("z-1", "Done", "completed");
  p.add_spec("z-2", "Open", "pending");
  auto refused = p.call("chant_archive", Json{{"id", "z-2"}});
  CHECK(is_error(refused));
  CHECK(text_of(refused) ==
        "Cannot archive spec z-2: status is pending (only completed specs can be archived)");
  CHECK(fs::exists(p.spec_path("z-2")));

  CHECK(text_of(p.call("chant_archive", Json{{"id", "z-1"}})) ==
        "Archived spec: z-1 -> .chant/archive/z-1.md");
  CHECK_FALSE(fs::exists(p.spec_path("z-1")));
  CHECK(fs::exists(p.paths().archive / "z-1.md"));
  CHECK(text_of(p.call("chant_spec_get", Json{{"id", "z-1"}})) == "Spec not found: 'z-1'");
  // An archived dependency counts as met.
  p.add_spec("z-3", "After", "pending", "", "[z-1]");
  CHECK(json_of(p.call("chant_ready"))["total"] == 2);

  p.add_spec("z-1", "Same id again", "completed");
  auto clash = p.call("chant_archive", Json{{"id", "z-1"}});
  CHECK(is_error(clash));
  CHECK_THAT(text_of(clash), Catch::Contains("already exists"));
}

TEST_CASE("mutations keep CRLF files CRLF and never leave temp files", "[chant][tools][mutating]") {
  Project p;
  p.write_spec("w-1", "---\r\ntitle: Win\r\nstatus: pending\r\n---\r\n\r\n# Win\r\n");
  CHECK_FALSE(is_error(p.call("chant_spec_update", Json{{"id", "w-1"}, {"output", "done"}})));
  std::string text = slurp(p.spec_path("w-1"));
  CHECK(text.find("\r\n## Output\r\n\r\ndone\r\n") != std::string::npos);
  CHECK(text.find("\n\n") == std::string::npos);  // no bare LF crept in
  std::size_t files = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(p.paths().specs)) ++files;
  CHECK(files == 1);
}

TEST_CASE("a spec cannot grow past the size limit", "[chant][tools][mutating]") {
  Project p;
  p.add_spec("big-1", "Big", "pending");
  std::string chunk(1024 * 1024, 'x');
  for (int i = 0; i < 7; ++i) {
    REQUIRE_FALSE(is_error(p.call("chant_spec_update", Json{{"id", "big-1"}, {"output", chunk}})));
  }
  auto r = p.call("chant_spec_update", Json{{"id", "big-1"}, {"output", chunk + chunk}});
  CHECK(is_error(r));
  CHECK_THAT(text_of(r), Catch::Contains("limit"));
  CHECK_FALSE(is_error(p.call("chant_spec_get", Json{{"id", "big-1"}})));  // still readable
}
