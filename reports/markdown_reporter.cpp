// A Markdown page for a CI job summary (e.g. $GITHUB_STEP_SUMMARY): the verdict at a glance, the
// tables, then the evidence for each case that needs a look. Target text is escaped so that it
// cannot inject markup, and the page stays under the size CI summaries accept.
#include "reports/formats.hpp"
#include "reports/report_file.hpp"
#include "reports/report_text.hpp"
#include "reports/run_facts.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace mcpspec::reports {

namespace {

// GitHub rejects step summaries over 1 MiB; stop adding detail well before that.
constexpr std::size_t kMaxDetailBytes = 900 * 1024;
constexpr std::size_t kWireExcerpt = 10;
constexpr std::size_t kBlockLines = 30;
constexpr std::size_t kLineBytes = 200;

// Plain text in running Markdown (and table cells): one line, punctuation that means something
// to Markdown or HTML escaped with a backslash.
std::string md_text(const std::string& s, std::size_t max_bytes = 400) {
  const std::string clean = first_line(clean_text(s, true), max_bytes);
  std::string out;
  for (char c : clean) {
    if (std::string_view("\\`*_[]<>|~#&!").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// Inline code; the delimiter is one backtick longer than any run inside (CommonMark rule).
// A table cell still needs '|' escaped, which GFM honours inside code spans too.
std::string md_code(const std::string& s) {
  std::string clean = first_line(clean_text(s, true), 300);
  std::size_t run = 0, longest = 0;
  for (char c : clean) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string escaped;
  for (char c : clean) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  const std::string fence(longest + 1, '`');
  const char* pad = longest > 0 || (!clean.empty() && (clean.front() == '`' || clean.back() == '`')) ? " " : "";
  return fence + pad + escaped + pad + fence;
}

// A fenced block that no content can close early: the fence outgrows any backtick run inside.
std::string md_fenced(const std::string& text, const char* info = "") {
  std::size_t run = 0, longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  return fence + info + "\n" + text + "\n" + fence + "\n";
}

std::string area_table(const std::vector<AreaCounts>& areas) {
  std::string out = "| Area | Pass | Fail | Warn | Skip | XFail | XPass | Error |\n";
  out += "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& a : areas) {
    const auto& c = a.counts;
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", md_text(a.area), c.pass, c.fail, c.warn, c.skip,
                       c.xfail, c.xpass, c.error);
  }
  return out;
}

std::string case_section(const RunInfo& info, const ScenarioResult& r, bool strict) {
  std::string out = fmt::format("### {} {}{}\n\n", verdict_label(r.verdict), md_code(r.id),
                                r.protocol.empty() ? std::string() : " \\[" + md_text(r.protocol) + "\\]");
  std::vector<std::string> facts;
  if (!r.title.empty()) facts.push_back(md_text(r.title));
  if (!r.requirements.empty()) {
    facts.push_back(fmt::format("requirements {} ({})", md_text(fmt::format("{}", fmt::join(r.requirements, ", "))),
                                level_name(r.level)));
  }
  if (!r.section.empty()) facts.push_back("section " + md_text(r.section));
  if (!r.negotiated.empty() && r.negotiated != r.protocol) facts.push_back("negotiated " + md_text(r.negotiated));
  facts.push_back(md_text(human_ms(r.duration_ms)));
  out += fmt::format("{}\n\n", fmt::join(facts, " · "));

  if (r.verdict == Verdict::XPass) {
    out += "Passed, but the baseline expects it to fail";
    if (!r.reason.empty()) out += " (" + md_text(r.reason) + ")";
    out += ": remove the entry from the baseline.\n\n";
  } else if (r.verdict == Verdict::Error) {
    out += "Harness error: " + md_text(r.reason.empty() ? "(no reason given)" : r.reason) + "\n\n";
  } else if (r.verdict == Verdict::Warn && !strict) {
    out += "A SHOULD-level finding; it fails the run only with `--strict`.\n\n";
  }
  for (const auto& f : r.findings) {
    out += fmt::format("- **{}** — {}{}, {}\n", md_text(f.message), level_name(f.level),
                       f.requirements.empty() ? "" : " " + md_text(fmt::format("{}", fmt::join(f.requirements, ", "))),
                       f.step < 0 ? std::string("outside the steps") : fmt::format("steps\\[{}\\]", f.step));
    auto block = [&](const char* name, const std::string& text) {
      if (text.empty()) return;
      // Indented two spaces so the block stays inside the list item.
      std::string fenced = md_fenced(limit_lines(clean_text(pretty_if_json(text), true), kBlockLines, kLineBytes));
      out += fmt::format("\n  {}:\n\n", name);
      std::size_t pos = 0;
      while (pos < fenced.size()) {
        std::size_t end = fenced.find('\n', pos);
        out += "  " + fenced.substr(pos, end - pos) + "\n";
        pos = end + 1;
      }
    };
    block("expected", f.expected);
    block("received", f.received);
    block("diff", f.diff);
    out += "\n";
  }
  if (!r.wire.empty()) {
    const std::size_t first = r.wire.size() > kWireExcerpt ? r.wire.size() - kWireExcerpt : 0;
    std::string lines;
    for (std::size_t i = first; i < r.wire.size(); ++i) {
      const auto& w = r.wire[i];
      lines += fmt::format("{:>9.1f} ms {} {}{}\n", w.t_ms, wire_dir_symbol(w.dir),
                           w.dir == WireEntry::Dir::Stderr ? "stderr: " : "",
                           truncate_text(clean_text(w.text, false), 300));
    }
    if (!lines.empty()) lines.pop_back();
    out += fmt::format("Wire log{}:\n\n", first > 0 ? fmt::format(" (last {} of {} lines)", r.wire.size() - first,
                                                                 r.wire.size())
                                                    : std::string());
    out += md_fenced(lines) + "\n";
  }
  out += "Re-run:\n\n" + md_fenced(rerun_command(info, r), "sh") + "\n";
  return out;
}

std::string render(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) {
  std::string out = "# mcpspec conformance report\n\n";
  out += fmt::format("**{}** — {}\n\n", s.failed() ? "FAILED" : (s.total() == 0 ? "NOTHING RAN" : "PASSED"),
                     md_text(count_sentence(s)));
  std::vector<std::string> facts;
  facts.push_back("target " + md_code(info.target));
  if (!info.protocols.empty()) facts.push_back("protocols " + md_text(fmt::format("{}", fmt::join(info.protocols, ", "))));
  if (!info.started_at.empty()) facts.push_back("started " + md_text(info.started_at));
  facts.push_back("duration " + md_text(human_ms(info.duration_ms)));
  facts.push_back(std::string(info.strict ? "strict (warnings fail)" : "not strict (warnings do not fail)"));
  facts.push_back("mcpspec " + md_text(info.mcpspec_version.empty() ? MCPSPEC_VERSION : info.mcpspec_version));
  out += fmt::format("{}\n\n", fmt::join(facts, " · "));

  out += "| Verdict | Count |\n|---|---:|\n";
  out += fmt::format("| Pass | {} |\n| Fail | {} |\n| Warn | {} |\n| Skip | {} |\n| XFail (expected) | {} |\n"
                     "| XPass (unexpected pass) | {} |\n| Error | {} |\n| **Total** | **{}** |\n\n",
                     s.pass, s.fail, s.warn, s.skip, s.xfail, s.xpass, s.error, s.total());

  const auto areas = per_area(results, s.strict);
  if (!areas.empty()) out += "## Per area\n\n" + area_table(areas) + "\n";

  if (!info.stale_baseline.empty()) {
    out += fmt::format("## Stale baseline entries ({})\n\nThey matched no scenario in this run; remove them if the run "
                       "covered them.\n\n",
                       info.stale_baseline.size());
    for (const auto& e : info.stale_baseline) out += "- " + md_code(e) + "\n";
    out += "\n";
  }

  std::vector<const ScenarioResult*> attention;
  for (const auto& r : results) {
    if (r.verdict == Verdict::Fail || r.verdict == Verdict::Warn || r.verdict == Verdict::Error ||
        r.verdict == Verdict::XPass)
      attention.push_back(&r);
  }
  // Failing cases first, warnings after them, each group in run order.
  std::stable_sort(attention.begin(), attention.end(), [&](const ScenarioResult* a, const ScenarioResult* b) {
    return fails_run(a->verdict, s.strict) && !fails_run(b->verdict, s.strict);
  });
  if (!attention.empty()) {
    out += fmt::format("## Cases to look at ({})\n\n", attention.size());
    const std::size_t budget = out.size() + kMaxDetailBytes;
    std::size_t shown = 0;
    for (const auto* r : attention) {
      std::string section = case_section(info, *r, s.strict);
      if (out.size() + section.size() > budget) break;
      out += section;
      ++shown;
    }
    if (shown < attention.size()) {
      out += fmt::format("_{} more cases left out to keep this page small; the JSON or JUnit report has them all._\n\n",
                         attention.size() - shown);
    }
  }

  auto details_list = [&](Verdict v, const char* title) {
    std::vector<const ScenarioResult*> cases;
    for (const auto& r : results)
      if (r.verdict == v) cases.push_back(&r);
    if (cases.empty()) return;
    out += fmt::format("<details><summary>{} ({})</summary>\n\n| Scenario | Protocol | Reason |\n|---|---|---|\n", title,
                       cases.size());
    std::size_t budget = 64 * 1024;
    for (const auto* r : cases) {
      std::string row = fmt::format("| {} | {} | {} |\n", md_code(r->id), md_text(r->protocol), md_text(r->reason, 300));
      if (row.size() > budget) {
        out += "| … | | (list cut short) |\n";
        break;
      }
      budget -= row.size();
      out += row;
    }
    out += "\n</details>\n\n";
  };
  details_list(Verdict::Skip, "Skipped: not verified");
  details_list(Verdict::XFail, "Expected failures (baseline)");
  return out;
}

class MarkdownReporter final : public Reporter {
 public:
  explicit MarkdownReporter(std::string path) : path_(std::move(path)) {}
  void on_finish(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) override {
    write_report(path_, "md", render(info, results, s));
  }

 private:
  std::string path_;
};

}  // namespace

std::unique_ptr<Reporter> make_markdown_reporter(const std::string& path) {
  return std::make_unique<MarkdownReporter>(path);
}

}  // namespace mcpspec::reports
