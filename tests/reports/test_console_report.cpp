// Console reporter: verdict lines, evidence for failures, the summary, and safety of the text.
#include "reports/formats.hpp"
#include "reports/report_text.hpp"
#include "reports/run_facts.hpp"
#include "tests/reports/sample_results.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <thread>

using namespace mcpspec;
using namespace mcpspec::reports;
using mcpspec::testing::sample_info;
using mcpspec::testing::sample_results;

namespace {

std::string run_console(const std::vector<ScenarioResult>& results, ReportOptions opt, bool strict = false,
                        bool stream = true) {
  std::ostringstream out;
  opt.console = &out;
  auto rep = make_console_reporter(opt);
  RunInfo info = sample_info();
  info.strict = strict;
  rep->on_start(info, results.size());
  if (stream)
    for (const auto& r : results) rep->on_result(r);
  rep->on_finish(info, results, summarize(results, strict));
  return out.str();
}

// The whitespace-separated words of the first line starting with `prefix`.
std::vector<std::string> words_of_line(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) {
      std::istringstream w(line);
      std::vector<std::string> out;
      std::string word;
      while (w >> word) out.push_back(word);
      return out;
    }
  }
  return {};
}

bool has_raw_control(const std::string& s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n') || u == 0x7f) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("console prints one line per case that needs attention, with requirement ids and reason", "[reports][console]") {
  const std::string out = run_console(sample_results(), {});
  CHECK_THAT(out, Catch::Contains("FAIL  mcp/tools/call-unknown-tool [2025-11-25] (TOOL-17) 12 ms: unknown tool answered with a "
                                  "result instead of an error: tool"));
  // The requirement a WARN names is the one its finding broke (TOOL-04), not the scenario's list.
  CHECK_THAT(out, Catch::Contains("WARN  mcp/tools/list-pagination [2025-11-25] (TOOL-04) 12 ms: nextCursor is an empty string\n"));
  CHECK_THAT(out, Catch::Contains("XFAIL mcp/prompts/get-missing [2025-11-25] (REQ-1): expected failure (baseline): legacy "
                                  "dialect answers -32601\n"));
  CHECK_THAT(out, Catch::Contains("XPASS mcp/prompts/list-basic [2025-11-25] (REQ-1) 12 ms: passed, but the baseline expects it "
                                  "to fail (was broken in 1.2): remove the entry from the baseline\n"));
  CHECK_THAT(out, Catch::Contains("ERROR mcp/lifecycle/shutdown-stdin [2025-11-25] (REQ-1) 12 ms: harness error: could not "
                                  "spawn the target: <no such file> & \"quotes\"\n"));
  // A WARN is one line: its details (the title, the findings' step) only with --verbose.
  CHECK_THAT(out, !Catch::Contains("TOOL-04 SHOULD, at steps[1]"));
  // Passing and skipped cases get no line of their own unless verbose.
  CHECK_THAT(out, !Catch::Contains("PASS  mcp/lifecycle/initialize-basic"));
  CHECK_THAT(out, !Catch::Contains("SKIP  mcp/resources/read-text"));
  const std::string verbose = run_console(sample_results(), {.verbose = true});
  CHECK_THAT(verbose, Catch::Contains("PASS  mcp/lifecycle/initialize-basic [2025-11-25] (REQ-1) 12 ms\n"));
  CHECK_THAT(verbose, Catch::Contains("SKIP  mcp/resources/read-text [2025-11-25] (REQ-1): capability 'resources' not declared"));
  CHECK_THAT(verbose, Catch::Contains("TOOL-04 SHOULD, at steps[1]"));
}

TEST_CASE("console counts skips per reason, one line each", "[reports][console]") {
  auto results = sample_results();
  auto skip = results[3];
  REQUIRE(skip.verdict == Verdict::Skip);
  for (int i = 0; i < 4; ++i) {
    skip.id = "mcp/resources/more-" + std::to_string(i);
    results.push_back(skip);
  }
  skip.reason = "protocol 2024-11-05 is outside the scenario's range";
  results.push_back(skip);
  const std::string out = run_console(results, {});
  CHECK_THAT(out, Catch::Contains("SKIP     5 x capability 'resources' not declared by the server\n"
                                  "SKIP     1 x protocol 2024-11-05 is outside the scenario's range\n"
                                  "      (-v lists every skipped case)\n"));
  CHECK_THAT(out, !Catch::Contains("more-0"));
  const std::string verbose = run_console(results, {.verbose = true});
  CHECK_THAT(verbose, Catch::Contains("SKIP  mcp/resources/more-0 [2025-11-25]"));
  CHECK_THAT(verbose, !Catch::Contains("-v lists every skipped case"));
}

TEST_CASE("console shows the evidence of a failure: requirement, step, what differs", "[reports][console]") {
  const std::string out = run_console(sample_results(), {});
  CHECK_THAT(out, Catch::Contains("TOOL-17 MUST, at steps[3]"));
  CHECK_THAT(out, Catch::Contains("diff:\n        /error: missing (expected an object)\n        /result: present"));
  // With a diff, the expected matcher is left out by default; the received value is short: whole.
  CHECK_THAT(out, !Catch::Contains("expected:\n"));
  CHECK_THAT(out, Catch::Contains("received:\n        {\n          \"result\""));
  CHECK_THAT(out, Catch::Contains("spec section: basic/lifecycle"));
  // A single finding's message is in the heading, not repeated.
  CHECK_THAT(out, !Catch::Contains("1) unknown tool answered"));

  const std::string verbose = run_console(sample_results(), {.verbose = true});
  CHECK_THAT(verbose, Catch::Contains("expected:\n        {\n          \"error\": {"));
  CHECK_THAT(verbose, Catch::Contains("Title of mcp/tools/call-unknown-tool"));
}

TEST_CASE("console cuts a long received value around the mismatch", "[reports][console]") {
  auto results = sample_results();
  results.resize(2);
  auto& f = results[1].findings[0];
  nlohmann::json tools = nlohmann::json::array();
  for (int i = 0; i < 60; ++i) tools.push_back({{"name", "tool-" + std::to_string(i)}, {"inputSchema", {{"type", "object"}}}});
  tools[42]["inputSchema"] = {{"type", "string"}, {"marker", "THE-BAD-ONE"}};
  f.received = nlohmann::json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"tools", tools}}}}.dump();
  f.diff = "/result/tools/42/inputSchema/type: expected \"object\", got \"string\"";
  const std::string out = run_console(results, {});
  CHECK_THAT(out, Catch::Contains("received at /result/tools/42/inputSchema (cut around the mismatch; -v or the wire log has all of it):\n"));
  CHECK_THAT(out, Catch::Contains("THE-BAD-ONE"));
  CHECK_THAT(out, !Catch::Contains("tool-41"));
  CHECK_THAT(out, !Catch::Contains("tool-0\""));
  CHECK_THAT(out, Catch::Contains("wire log: 31 lines (--wire prints them; json and html reports keep them)"));

  // A pointer that leaves the value stops at the deepest node that exists.
  f.diff = "/result/tools/7/missing/deeper: required";
  const std::string partial = run_console(results, {});
  CHECK_THAT(partial, Catch::Contains("received at /result/tools/7 (cut"));
  CHECK_THAT(partial, Catch::Contains("\"tool-7\""));
  CHECK_THAT(partial, !Catch::Contains("\"tool-8\""));

  // Without a diff, the first pointer in the message (schema findings name the place in text).
  f.diff.clear();
  f.message = "[schema] not a valid message (ListToolsResult): /result/tools/42/inputSchema/type does not match";
  const std::string schema = run_console(results, {});
  CHECK_THAT(schema, Catch::Contains("received at /result/tools/42/inputSchema (cut"));
  CHECK_THAT(schema, Catch::Contains("THE-BAD-ONE"));
}

TEST_CASE("console lays out one-line JSON evidence and cuts long blocks under --verbose", "[reports][console]") {
  auto results = sample_results();
  results.resize(2);
  nlohmann::json big = nlohmann::json::array();
  for (int i = 0; i < 100; ++i) big.push_back({{"index", i}});
  results[1].findings[0].received = big.dump();
  const std::string out = run_console(results, {.verbose = true});
  CHECK_THAT(out, Catch::Contains("received:\n        [\n          {\n            \"index\": 0\n          },"));
  CHECK_THAT(out, Catch::Contains("more lines]"));
  CHECK_THAT(out, !Catch::Contains("\"index\": 99"));
}

TEST_CASE("console points to the wire log, shows its tail with --verbose, all of it with --wire", "[reports][console]") {
  const std::string quiet_wire = run_console(sample_results(), {});
  CHECK_THAT(quiet_wire, Catch::Contains("wire log: 31 lines (--wire prints them"));
  CHECK_THAT(quiet_wire, !Catch::Contains("frame-29 "));

  const std::string tail = run_console(sample_results(), {.verbose = true});
  CHECK_THAT(tail, Catch::Contains("wire (last 20 of 31 lines; --wire shows all):"));
  CHECK_THAT(tail, !Catch::Contains("frame-10 "));
  CHECK_THAT(tail, Catch::Contains("frame-11 "));
  CHECK_THAT(tail, Catch::Contains("! stderr: frame-14 "));
  CHECK_THAT(tail, Catch::Contains("< frame-13 "));
  CHECK_THAT(tail, Catch::Contains("> frame-12 "));
  // A huge frame is cut, not dumped.
  CHECK_THAT(tail, Catch::Contains("HUGExxx"));
  CHECK_THAT(tail, !Catch::Contains("xxxTAIL"));
  CHECK_THAT(tail, Catch::Contains("more bytes]"));

  const std::string full = run_console(sample_results(), {.wire = true});
  CHECK_THAT(full, Catch::Contains("frame-0 "));
  CHECK_THAT(full, Catch::Contains("xxxTAIL"));
  CHECK_THAT(full, !Catch::Contains("last 20 of"));
}

TEST_CASE("console summary: counts, areas, failing ids, re-run command", "[reports][console]") {
  const std::string out = run_console(sample_results(), {});
  CHECK_THAT(out, Catch::Contains("1 passed, 1 failed, 1 warning, 1 skipped, 1 expected failure, 1 unexpected pass, "
                                  "1 error (7 scenarios in 4321 ms)"));
  CHECK_THAT(out, Catch::Contains("FAILED (exit 1)"));
  CHECK(words_of_line(out, "  area") ==
        std::vector<std::string>{"area", "pass", "fail", "warn", "skip", "xfail", "xpass", "error"});
  CHECK(words_of_line(out, "  tools ") == std::vector<std::string>{"tools", "0", "1", "1", "0", "0", "0", "0"});
  CHECK(words_of_line(out, "  prompts ") == std::vector<std::string>{"prompts", "0", "0", "0", "0", "1", "1", "0"});
  CHECK(words_of_line(out, "  lifecycle ") == std::vector<std::string>{"lifecycle", "1", "0", "0", "0", "0", "0", "1"});
  CHECK(words_of_line(out, "  resources ") == std::vector<std::string>{"resources", "0", "0", "0", "1", "0", "0", "0"});
  CHECK_THAT(out, Catch::Contains("Failing (3):\n  FAIL  mcp/tools/call-unknown-tool [2025-11-25]\n"
                                  "  XPASS mcp/prompts/list-basic [2025-11-25]\n"
                                  "  ERROR mcp/lifecycle/shutdown-stdin [2025-11-25]\n"));
  // The area table comes after the lists, and the count line and outcome end the output.
  CHECK(out.find("Failing (3):") < out.find("  area "));
  CHECK(out.find("Re-run one failing case:") < out.find("  area "));
  CHECK(out.ends_with("1 error (7 scenarios in 4321 ms)\nFAILED (exit 1)\n"));
  CHECK_THAT(out, Catch::Contains("Stale baseline entries (1)"));
  CHECK_THAT(out, Catch::Contains("  mcp/old/* [any protocol]\n"));
  CHECK_THAT(out, Catch::Contains("Re-run one failing case:\n  mcpspec run --server 'node server.js --name '\\''it'\\'''\\''s'\\''' "
                                  "--filter 'mcp/tools/call-unknown-tool' --protocol 2025-11-25 --wire\n"));

  // Under strict the warning moves into the failing list.
  const std::string strict = run_console(sample_results(), {}, true);
  CHECK_THAT(strict, Catch::Contains("Failing (4):"));
  CHECK_THAT(strict, Catch::Contains("--protocol 2025-11-25 --strict --wire"));
}

TEST_CASE("console folds the areas where every case passed into one row unless verbose", "[reports][console]") {
  auto results = sample_results();
  auto pass = results[0];
  for (const char* area : {"alpha", "beta", "gamma"}) {
    pass.area = area;
    pass.id = std::string("mcp/") + area + "/x";
    results.push_back(pass);
    results.push_back(pass);
  }
  const std::string out = run_console(results, {});
  CHECK(words_of_line(out, "  (3 ") == std::vector<std::string>{"(3", "more,", "all", "pass)", "6", "0", "0", "0", "0", "0", "0"});
  CHECK(words_of_line(out, "  alpha ").empty());
  CHECK(words_of_line(out, "  tools ") == std::vector<std::string>{"tools", "0", "1", "1", "0", "0", "0", "0"});
  const std::string verbose = run_console(results, {.verbose = true});
  CHECK(words_of_line(verbose, "  alpha ") == std::vector<std::string>{"alpha", "2", "0", "0", "0", "0", "0", "0"});
  CHECK(words_of_line(verbose, "  (3 ").empty());
}

TEST_CASE("console never counts a skip as a pass", "[reports][console]") {
  auto results = sample_results();
  std::vector<ScenarioResult> only;
  for (const auto& r : results)
    if (r.verdict == Verdict::Pass || r.verdict == Verdict::Skip) only.push_back(r);
  only.push_back(only.back());
  const std::string out = run_console(only, {});
  CHECK_THAT(out, Catch::Contains("1 passed, 0 failed, 0 warnings, 2 skipped (3 scenarios"));
  CHECK_THAT(out, Catch::Contains("OK (2 skipped, not verified)"));
  CHECK_THAT(out, !Catch::Contains("3 passed"));
  CHECK_THAT(out, !Catch::Contains("2 passed"));

  const std::string none = run_console({}, {});
  CHECK_THAT(none, Catch::Contains("Nothing ran"));
}

TEST_CASE("console output carries no raw control characters from the target", "[reports][console]") {
  const std::string plain = run_console(sample_results(), {.wire = true});
  CHECK_FALSE(has_raw_control(plain));
  CHECK(mcpspec::testing::is_valid_utf8(plain));
  CHECK_THAT(plain, Catch::Contains("\\u001b[31mred"));
  CHECK_THAT(plain, Catch::Contains("nul:\\u0000"));
  CHECK_THAT(plain, Catch::Contains("c1:\\u009b"));
  CHECK_THAT(plain, Catch::Contains("bad:\xEF\xBF\xBD"));

  // With colour our own escapes appear, the target's still do not.
  const std::string colour = run_console(sample_results(), {.color = true});
  CHECK_THAT(colour, Catch::Contains("\x1b[1;31mFAIL \x1b[0m mcp/tools/call-unknown-tool"));
  CHECK_THAT(colour, !Catch::Contains("\x1b[31mred"));
}

TEST_CASE("console --quiet: only the failing cases, one line each, and the outcome", "[reports][console]") {
  const std::string out = run_console(sample_results(), {.quiet = true});
  CHECK(out ==
        "FAIL  mcp/tools/call-unknown-tool [2025-11-25] (TOOL-17) 12 ms: " +
            first_line(clean_text(sample_results()[1].findings[0].message, true), 300) +
            "\n"
            "XPASS mcp/prompts/list-basic [2025-11-25] (REQ-1) 12 ms: passed, but the baseline expects it to fail (was broken "
            "in 1.2): remove the entry from the baseline\n"
            "ERROR mcp/lifecycle/shutdown-stdin [2025-11-25] (REQ-1) 12 ms: harness error: could not spawn the target: <no such "
            "file> & \"quotes\"\n"
            "1 passed, 1 failed, 1 warning, 1 skipped, 1 expected failure, 1 unexpected pass, 1 error (7 scenarios in 4321 ms)\n"
            "FAILED (exit 1)\n");
}

TEST_CASE("console progress line: rewritten in place, only when asked for, gone at the end", "[reports][console]") {
  const std::string plain = run_console(sample_results(), {});
  CHECK(plain.find('\r') == std::string::npos);
  const std::string live = run_console(sample_results(), {.progress = true});
  CHECK_THAT(live, Catch::Contains("[1/7] mcp/lifecycle/initialize-basic"));
  CHECK_THAT(live, Catch::Contains("[7/7] mcp/lifecycle/shutdown-stdin\r\x1b[K"));
  // Every case line starts on a cleared line, never after a progress text.
  CHECK_THAT(live, Catch::Contains("initialize-basic\r\x1b[KFAIL  mcp/tools/call-unknown-tool"));
  // The summary is the same as without the progress line.
  CHECK(live.substr(live.find("Failing (3)")) == plain.substr(plain.find("Failing (3)")));
}

TEST_CASE("console prints cases at the end when the runner did not stream them", "[reports][console]") {
  const std::string out = run_console(sample_results(), {}, false, false);
  CHECK_THAT(out, Catch::Contains("FAIL  mcp/tools/call-unknown-tool [2025-11-25] (TOOL-17) 12 ms: unknown tool"));
  CHECK_THAT(out, Catch::Contains("1 passed, 1 failed"));
}

TEST_CASE("console serializes results arriving from several threads", "[reports][console]") {
  std::ostringstream out;
  ReportOptions opt;
  opt.console = &out;
  auto rep = make_console_reporter(opt);
  auto r = sample_results()[1];
  r.wire.resize(3);
  constexpr int kThreads = 4, kEach = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        auto mine = r;
        mine.id = "mcp/tools/t" + std::to_string(t) + "-" + std::to_string(i);
        rep->on_result(mine);
      }
    });
  }
  for (auto& th : threads) th.join();

  // A single result rendered alone gives the block size every interleaved block must keep.
  std::ostringstream one;
  ReportOptions one_opt;
  one_opt.console = &one;
  make_console_reporter(one_opt)->on_result(r);
  const auto lines_of = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  const auto block_lines = lines_of(one.str());
  REQUIRE(block_lines > 5);

  std::istringstream in(out.str());
  std::string line;
  int blocks = 0;
  long in_block = -1;
  bool torn = false;
  while (std::getline(in, line)) {
    if (line.rfind("FAIL  mcp/tools/t", 0) == 0) {
      if (in_block != -1 && in_block != block_lines) torn = true;
      ++blocks;
      in_block = 0;
      CHECK_THAT(line, Catch::Contains(" [2025-11-25] (TOOL-17) 12 ms: unknown tool answered"));
    }
    ++in_block;
  }
  CHECK(in_block == block_lines);
  CHECK_FALSE(torn);
  CHECK(blocks == kThreads * kEach);
}
