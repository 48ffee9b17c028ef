#include "front_matter.hpp"
#include "spec.hpp"
#include "spec_document.hpp"

#include <catch2/catch.hpp>

using namespace chant;

namespace {

FrontMatter fm_of(std::initializer_list<std::string> lines) {
  return FrontMatter::parse(std::vector<std::string>(lines), 2);
}

}  // namespace

TEST_CASE("scalars: plain, quoted, null and comments", "[chant][front_matter]") {
  auto fm = fm_of({"a: plain text", "b: \"quoted: yes\\n\\\"x\\\"\"", "c: 'it''s'", "d:", "e: ~",
                   "f: value # comment", "g: \"\\u00e9\\U0001F600\\x41\"", "h: http://x/y#frag"});
  CHECK(fm.scalar("a") == "plain text");
  CHECK(fm.scalar("b") == "quoted: yes\n\"x\"");
  CHECK(fm.scalar("c") == "it's");
  CHECK_FALSE(fm.scalar("d").has_value());
  CHECK_FALSE(fm.scalar("e").has_value());
  CHECK(fm.scalar("f") == "value");
  CHECK(fm.scalar("g") == "\xC3\xA9\xF0\x9F\x98\x80" "A");
  CHECK(fm.scalar("h") == "http://x/y#frag");
  CHECK_FALSE(fm.scalar("absent").has_value());
}

TEST_CASE("lists: flow, block, single scalar and empty", "[chant][front_matter]") {
  auto fm = fm_of({"flow: [a, \"b, c\", 'd']", "block:", "  - one", "  - \"two\"", "",
                   "  - three", "single: solo", "empty: []", "nothing:", "trailing: [x,]"});
  CHECK(fm.list("flow") == std::vector<std::string>{"a", "b, c", "d"});
  CHECK(fm.list("block") == std::vector<std::string>{"one", "two", "three"});
  CHECK(fm.list("single") == std::vector<std::string>{"solo"});
  CHECK(fm.list("empty")->empty());
  CHECK(fm.list("nothing")->empty());
  CHECK(fm.list("trailing") == std::vector<std::string>{"x"});
  CHECK_FALSE(fm.list("absent").has_value());
  CHECK_THROWS_WITH(fm.scalar("flow"), Catch::Contains("line 2") && Catch::Contains("not a list"));
}

TEST_CASE("malformed front matter names the line", "[chant][front_matter]") {
  CHECK_THROWS_WITH(fm_of({"ok: 1", "this is not a key"}), Catch::StartsWith("line 3:"));
  CHECK_THROWS_WITH(fm_of({"  indented: first"}), Catch::StartsWith("line 2:"));
  CHECK_THROWS_WITH(fm_of({"a: 1", "b: 2", "a: 3"}),
                    Catch::StartsWith("line 4:") && Catch::Contains("duplicate key 'a'"));
  auto fm = fm_of({"q: \"unterminated", "l: [a, b", "e: \"bad \\q escape\"", "m: {a: 1}",
                   "n:", "  sub: map"});
  CHECK_THROWS_WITH(fm.scalar("q"), Catch::StartsWith("line 2:") && Catch::Contains("closing"));
  CHECK_THROWS_WITH(fm.list("l"), Catch::StartsWith("line 3:"));
  CHECK_THROWS_WITH(fm.scalar("e"), Catch::Contains("unknown escape"));
  CHECK_THROWS_WITH(fm.scalar("m"), Catch::StartsWith("line 5:"));
  CHECK_THROWS_WITH(fm.scalar("n"), Catch::StartsWith("line 6:") && Catch::Contains("nested"));
}

TEST_CASE("rendered scalars and lists read back identically", "[chant][front_matter]") {
  const std::vector<std::string> samples = {
      "simple", "with: colon", "#hash", "- dash", "trailing ", " leading", "", "true", "null",
      "line\nbreak", "tab\there", "quote \"x\" and \\ backslash", "comma, here", "[bracket]",
      "ends:", "ctrl\x01", "unicode \xC3\xA9", "a #b", "2026-01-22T14:30:00Z", "'single'"};
  for (const auto& s : samples) {
    auto fm = fm_of({"k: " + render_scalar(s)});
    INFO("value: " << s << " rendered: " << render_scalar(s));
    if (s.empty()) {
      CHECK(fm.scalar("k") == std::optional<std::string>(""));
    } else {
      CHECK(fm.scalar("k") == s);
    }
  }
  auto fm = fm_of({"l: " + render_flow_list(samples)});
  CHECK(fm.list("l") == samples);
}

TEST_CASE("editing keeps unknown keys, comments and order", "[chant][front_matter]") {
  auto fm = fm_of({"# a comment", "title: Keep me", "custom:", "  nested: value", "status: pending",
                   "# about type", "type: code", "weird: {a: 1}"});
  fm.set_scalar("status", "completed");
  fm.set_scalar("added", "new");
  fm.set_list("labels", {"x", "y z"});
  fm.erase("type");
  auto lines = fm.render();
  std::vector<std::string> expected = {"# a comment", "title: Keep me", "custom:", "  nested: value",
                                       "status: completed", "# about type", "weird: {a: 1}",
                                       "added: new", "labels: [x, y z]"};
  CHECK(lines == expected);
}

TEST_CASE("spec documents round-trip byte for byte", "[chant][front_matter]") {
  const std::string texts[] = {
      "---\nid: 2026-01-22-001-x7m\ntitle: \"A: b\"\nstatus: pending\nextra_key: [1, 2]\n---\n\n# A: b\n\nBody\n",
      "---\r\ntitle: Windows\r\nstatus: failed\r\n---\r\n\r\n# Windows\r\n- [ ] item\r\n",
      "\xEF\xBB\xBF---\ntitle: Bom\n---\nbody without final newline",
      "# No front matter at all\n\nJust Markdown.\n",
      "---\n---\nempty front matter\n",
  };
  for (const auto& t : texts) {
    auto doc = SpecDocument::parse(t);
    CHECK(doc.render() == t);
  }
  auto crlf = SpecDocument::parse(texts[1]);
  CHECK(crlf.crlf);
  CHECK(crlf.body == "\n# Windows\n- [ ] item\n");
  CHECK(crlf.front_matter.scalar("title") == "Windows");
  crlf.front_matter.set_scalar("status", "pending");
  CHECK(crlf.render() ==
        "---\r\ntitle: Windows\r\nstatus: pending\r\n---\r\n\r\n# Windows\r\n- [ ] item\r\n");
}

TEST_CASE("unclosed front matter is reported", "[chant][front_matter]") {
  CHECK_THROWS_WITH(SpecDocument::parse("---\ntitle: x\nno end\n"),
                    Catch::StartsWith("line 1:") && Catch::Contains("never closed"));
}

TEST_CASE("spec fields: defaults, aliases, title fallback", "[chant][front_matter]") {
  auto bare = parse_spec("x", "# Heading title\n\ntext\n");
  CHECK(bare.status == Status::Pending);
  CHECK(bare.type == "code");
  CHECK(bare.title == "Heading title");
  CHECK(bare.depends_on.empty());

  auto spec = parse_spec("y", "---\nstatus: ready\ndependencies:\n  - a-1\n  - b-2\nlabels: solo\n"
                              "unknown: whatever\n---\n```\n# not a title\n```\n# Real\n");
  CHECK(spec.status == Status::Pending);  // "ready" is stored as pending
  CHECK(spec.depends_on == std::vector<std::string>{"a-1", "b-2"});
  CHECK(spec.labels == std::vector<std::string>{"solo"});
  CHECK(spec.title == "Real");

  CHECK_THROWS_WITH(parse_spec("z", "---\ntitle: t\nstatus: wip\n---\n"),
                    Catch::StartsWith("line 3:") && Catch::Contains("unknown status 'wip'"));
  CHECK_THROWS_WITH(parse_spec("z", "---\ndepends_on: [../etc/passwd]\n---\n"),
                    Catch::StartsWith("line 2:") && Catch::Contains("not a valid spec id"));
}
