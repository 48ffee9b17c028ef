// make_reporter() parsing and the atomic, error-reporting file writes every file reporter uses.
#include "reports/report_file.hpp"
#include "reports/report_text.hpp"
#include "reports/reporter.hpp"
#include "reports/run_facts.hpp"
#include "tests/reports/sample_results.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace mcpspec;
using namespace mcpspec::reports;
using mcpspec::testing::read_all;
using mcpspec::testing::sample_info;
using mcpspec::testing::sample_results;
using mcpspec::testing::TempDir;

namespace {
std::string invalid_argument_of(const std::string& spec) {
  try {
    make_reporter(spec, {});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}
}  // namespace

TEST_CASE("make_reporter accepts every documented kind", "[reports][factory]") {
  TempDir dir;
  CHECK(make_reporter("console", {}) != nullptr);
  CHECK(make_reporter("json:" + dir.file("r.json"), {}) != nullptr);
  CHECK(make_reporter("junit:" + dir.file("r.xml"), {}) != nullptr);
  CHECK(make_reporter("md:" + dir.file("r.md"), {}) != nullptr);
  CHECK(make_reporter("html:" + dir.file("r.html"), {}) != nullptr);
  CHECK(make_reporter("json:-", {}) != nullptr);
  CHECK(make_reporter("json:relative-name.json", {}) != nullptr);  // parent "." exists
}

TEST_CASE("make_reporter names what is wrong with a spec", "[reports][factory]") {
  CHECK_THAT(invalid_argument_of("xml:out.xml"), Catch::Contains("unknown report kind 'xml'") &&
                                                     Catch::Contains("console, json:PATH, junit:PATH, md:PATH or html:PATH"));
  CHECK_THAT(invalid_argument_of(""), Catch::Contains("unknown report kind ''"));
  CHECK_THAT(invalid_argument_of("JSON:x.json"), Catch::Contains("unknown report kind 'JSON'"));
  CHECK_THAT(invalid_argument_of("json"), Catch::Contains("json needs a path") && Catch::Contains("json:-"));
  CHECK_THAT(invalid_argument_of("junit:"), Catch::Contains("junit needs a path"));
  CHECK_THAT(invalid_argument_of("console:out.txt"), Catch::Contains("takes no path"));
  CHECK_THAT(invalid_argument_of("html"), Catch::Contains("html needs a path, e.g. html:report.html"));
  CHECK_THAT(invalid_argument_of("json:/nonexistent-mcpspec-dir/r.json"),
             Catch::Contains("directory '/nonexistent-mcpspec-dir' does not exist"));
  TempDir dir;
  CHECK_THAT(invalid_argument_of("md:" + dir.path.string()), Catch::Contains("is a directory"));
}

TEST_CASE("report files are replaced whole and leave no temporary behind", "[reports][factory]") {
  TempDir dir;
  const std::string path = dir.file("r.json");
  mcpspec::testing::write_all(path, "old content that is longer than nothing");
  const auto results = sample_results();
  make_reporter("json:" + path, {})->on_finish(sample_info(), results, summarize(results, false));
  const std::string text = read_all(path);
  CHECK_THAT(text, Catch::StartsWith("{"));
  CHECK_THAT(text, !Catch::Contains("old content"));
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    (void)e;
    ++files;
  }
  CHECK(files == 1);
}

TEST_CASE("a report that cannot be written is a clear exception", "[reports][factory]") {
  TempDir dir;
  const std::string sub = dir.file("gone");
  std::filesystem::create_directories(sub);
  const std::string path = sub + "/r.xml";
  auto rep = make_reporter("junit:" + path, {});
  std::filesystem::remove_all(sub);  // the directory disappears during the run
  const auto results = sample_results();
  try {
    rep->on_finish(sample_info(), results, summarize(results, false));
    FAIL("expected an exception");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("cannot write junit report '" + path + "'") &&
                                          Catch::Contains("No such file or directory"));
  }
}

TEST_CASE("text helpers: UTF-8 repair, control escapes, truncation", "[reports][text]") {
  CHECK(valid_utf8("ok \xc3\xa9 \xf0\x9f\x98\x80") == "ok \xc3\xa9 \xf0\x9f\x98\x80");
  CHECK(valid_utf8("\xc0\xaf") == "\xEF\xBF\xBD\xEF\xBF\xBD");          // overlong '/'
  CHECK(valid_utf8("\xed\xa0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  CHECK(valid_utf8("\xf4\x90\x80\x80").find("\xEF\xBF\xBD") == 0);        // above U+10FFFF
  CHECK(valid_utf8("ab\xe2\x82") == "ab\xEF\xBF\xBD\xEF\xBF\xBD");        // truncated at the end
  CHECK(clean_text("a\tb\nc\rd\x1b", true) == "a\tb\nc\\u000dd\\u001b");
  CHECK(clean_text("a\nb", false) == "a\\u000ab");
  CHECK(clean_text("\xef\xbf\xbf", true) == "\\uffff");
  CHECK(truncate_text("h\xc3\xa9llo", 2) == "h... [5 more bytes]");  // never splits the é
  CHECK(limit_lines("1\n2\n3\n4", 2, 100) == "1\n2\n... [2 more lines]");
  CHECK(first_line("one\ntwo", 100) == "one ...");
  CHECK(xml_attr("<a b=\"c\" d='e'>&\n") == "&lt;a b=&quot;c&quot; d=&apos;e&apos;&gt;&amp;&#10;");
  CHECK(xml_text("x\x01y") == "x\\u0001y");
  CHECK(pretty_if_json(R"({"a":[1,2]})") == "{\n  \"a\": [\n    1,\n    2\n  ]\n}");
  CHECK(pretty_if_json("{\n  \"a\": 1\n}") == "{\n  \"a\": 1\n}");  // already laid out: untouched
  CHECK(pretty_if_json("{not json") == "{not json");
  CHECK(pretty_if_json("42") == "42");
  CHECK(pretty_if_json("plain text") == "plain text");
  CHECK(pretty_if_json("[\"\xff\"]") == "[\"\xff\"]");  // nlohmann refuses invalid UTF-8: left as is
  CHECK(human_ms(12.3) == "12 ms");
  CHECK(human_ms(0.42) == "0.4 ms");
  CHECK(human_ms(12345) == "12.3 s");
}

TEST_CASE("run facts: areas, counts and the re-run command", "[reports][text]") {
  ScenarioResult r;
  r.id = "mcp/tools/x";
  CHECK(area_of(r) == "tools");
  r.id = "lonely";
  CHECK(area_of(r) == "other");
  r.area = "lifecycle";
  CHECK(area_of(r) == "lifecycle");

  RunInfo info;
  info.target = "http://127.0.0.1:8080/mcp";
  r.id = "mcp/a";
  r.protocol = "2025-06-18";
  CHECK(rerun_command(info, r) == "mcpspec run --url 'http://127.0.0.1:8080/mcp' --filter 'mcp/a' --protocol 2025-06-18 --wire");
  // The authorization checks re-run with --auth; a server they started (mock-AS mode) over HTTP.
  r.id = "auth/rs/minted-tokens";
  r.role = "server";
  CHECK(rerun_command(info, r) ==
        "mcpspec run --url 'http://127.0.0.1:8080/mcp' --filter 'auth/rs/minted-tokens' --auth --protocol 2025-06-18 --wire");
  info.target = "./my-server";
  CHECK(rerun_command(info, r) == "mcpspec run --server './my-server' --filter 'auth/rs/minted-tokens' --transport http "
                                  "--auth --protocol 2025-06-18 --wire");
  r.id = "mcp/a";
  r.role = "client";
  info.target = "my-client --server \"{server}\"";
  CHECK(rerun_command(info, r) ==
        "mcpspec run --client 'my-client --server \"{server}\"' --filter 'mcp/a' --protocol 2025-06-18 --wire");

  const auto s = summarize(sample_results(), false);
  CHECK(s.total() == 7);
  CHECK(exit_code(s) == 1);
  RunSummary clean;
  clean.pass = 3;
  clean.skip = 2;
  CHECK(exit_code(clean) == 0);
  clean.warn = 1;
  CHECK(exit_code(clean) == 0);
  clean.strict = true;
  CHECK(exit_code(clean) == 1);
  CHECK(count_sentence(clean) == "3 passed, 0 failed, 1 warning, 2 skipped");
}
