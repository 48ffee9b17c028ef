// Human output, quiet by default: one line per finished case that needs attention (verdict, id,
// requirement ids, reason), under a FAIL or ERROR only the part that differs (the diff and the
// received value cut around the mismatch, with a pointer to the full wire log), skips counted per
// reason, and the summary table last so it is what stays on screen. `verbose` lists every case and
// the full evidence; `quiet` keeps just the failing lines and the count for CI logs. Everything a
// target sent is cleaned before it reaches the terminal, so a server cannot move the cursor or
// recolour the screen through its output.
#include "reports/formats.hpp"
#include "reports/mismatch_excerpt.hpp"
#include "reports/report_text.hpp"
#include "reports/run_facts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <mutex>

namespace mcpspec::reports {

namespace {

// Enough to see the shape of a message without drowning the terminal.
constexpr std::size_t kWireTail = 20;          // verbose: the last wire lines of a failing case
constexpr std::size_t kWireLineBytes = 300;
constexpr std::size_t kBlockLines = 40;        // verbose: expected / received / diff blocks
constexpr std::size_t kDiffLines = 12;         // default: what differs
constexpr std::size_t kBlockLineBytes = 240;
constexpr std::size_t kListedFailures = 50;
constexpr std::size_t kSkipReasons = 10;       // distinct skip reasons shown before "... more"

const char* verdict_colour(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "\x1b[32m";
    case Verdict::Fail:
    case Verdict::XPass:
    case Verdict::Error: return "\x1b[1;31m";
    case Verdict::Warn: return "\x1b[33m";
    case Verdict::Skip: return "\x1b[36m";
    case Verdict::XFail: return "\x1b[35m";
  }
  return "";
}
constexpr const char* kDim = "\x1b[2m";
constexpr const char* kBold = "\x1b[1m";
constexpr const char* kReset = "\x1b[0m";
constexpr const char* kClearLine = "\r\x1b[K";

std::string indent_block(const std::string& text, const std::string& pad) {
  std::string out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out += pad + text.substr(pos, end - pos) + "\n";
    if (end == text.size()) break;
    pos = end + 1;
  }
  return out;
}

std::string step_text(int step) {
  return step < 0 ? std::string("outside the steps (process/monitor)") : fmt::format("at steps[{}]", step);
}

std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
  return fmt::format("{}", fmt::join(v, sep));
}

class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(const ReportOptions& o) : opt_(o), out_(o.console ? *o.console : std::cout) {}

  void on_start(const RunInfo& info, std::size_t planned) override {
    std::lock_guard lock(mu_);
    planned_ = planned;
    if (opt_.quiet) return;
    std::string protocols = info.protocols.empty() ? "" : " (protocol " + joined(info.protocols) + ")";
    out_ << paint(kBold, fmt::format("mcpspec {}", info.mcpspec_version.empty() ? MCPSPEC_VERSION : info.mcpspec_version))
         << ": " << planned << (planned == 1 ? " scenario" : " scenarios") << " against "
         << clean_text(info.target, false) << protocols << (info.strict ? ", strict" : "") << "\n";
    out_.flush();
  }

  void on_result(const ScenarioResult& r) override {
    std::lock_guard lock(mu_);
    ++streamed_;
    if (opt_.quiet) return;
    if (progress_shown_) out_ << kClearLine;
    print_case(r);
    if (opt_.progress) {
      out_ << paint(kDim, fmt::format("[{}/{}] {}", streamed_, planned_, first_line(clean_text(r.id, false), 60)));
      progress_shown_ = true;
    }
    out_.flush();
  }

  void on_finish(const RunInfo& info, const std::vector<ScenarioResult>& results,
                 const RunSummary& s) override {
    std::lock_guard lock(mu_);
    if (progress_shown_) out_ << kClearLine;
    progress_shown_ = false;
    if (opt_.quiet) {
      print_quiet(info, results, s);
    } else {
      // A runner that never streamed still gets the per-case lines, once.
      if (streamed_ == 0)
        for (const auto& r : results) print_case(r);
      print_summary(info, results, s);
    }
    out_.flush();
    if (!out_) throw std::runtime_error("cannot write the console report (output stream failed)");
  }

 private:
  std::string paint(const char* colour, const std::string& text) const {
    return opt_.color ? std::string(colour) + text + kReset : text;
  }

  // "FAIL  id [protocol] (REQ-1, REQ-2) 12 ms: reason"
  std::string heading(const ScenarioResult& r) const {
    std::string line = paint(verdict_colour(r.verdict), fmt::format("{:<5}", verdict_label(r.verdict)));
    line += " " + clean_text(case_name_negotiated(r), false);
    if (const auto reqs = broken_requirements(r); !reqs.empty()) line += " (" + clean_text(joined(reqs), false) + ")";
    if (r.verdict != Verdict::Skip && r.verdict != Verdict::XFail) line += " " + human_ms(r.duration_ms);
    if (const auto why = verdict_reason(r); !why.empty()) line += ": " + why;
    return line;
  }

  static std::string case_name_negotiated(const ScenarioResult& r) {
    if (r.protocol.empty()) return r.id;
    std::string p = r.protocol;
    if (!r.negotiated.empty() && r.negotiated != r.protocol) p += ", negotiated " + r.negotiated;
    return r.id + " [" + p + "]";
  }

  void print_case(const ScenarioResult& r) {
    const bool listed = opt_.verbose || (r.verdict != Verdict::Pass && r.verdict != Verdict::Skip);
    if (!listed) return;
    out_ << heading(r) << "\n";
    const bool details = r.verdict == Verdict::Fail || r.verdict == Verdict::Error ||
                         (opt_.verbose && r.verdict == Verdict::Warn);
    if (details) print_evidence(r);
  }

  void print_evidence(const ScenarioResult& r) {
    if (opt_.verbose && !r.title.empty()) out_ << paint(kDim, "      " + first_line(clean_text(r.title, true), 200)) << "\n";
    if (!r.section.empty()) out_ << paint(kDim, "      spec section: " + clean_text(r.section, false)) << "\n";
    int n = 0;
    for (const auto& f : r.findings) {
      ++n;
      // The heading already carries a single finding's message.
      if (r.findings.size() > 1 || r.verdict == Verdict::Error)
        out_ << fmt::format("  {:>2}) ", n) << clean_text(f.message, false) << "\n";
      std::string where = f.requirements.empty() ? std::string() : clean_text(joined(f.requirements), false) + " ";
      out_ << paint(kDim, fmt::format("      {}{}, {}", where, level_name(f.level), step_text(f.step))) << "\n";
      if (opt_.verbose) {
        block("expected", f.expected, kBlockLines);
        block("received", f.received, kBlockLines);
        block("diff", f.diff, kBlockLines);
      } else {
        block("diff", f.diff, kDiffLines);
        if (f.diff.empty()) block("expected", f.expected, kDiffLines);
        received_excerpt_block(f);
      }
    }
    print_wire(r);
  }

  void block(const char* name, const std::string& text, std::size_t lines) {
    if (text.empty()) return;
    out_ << "      " << name << ":\n"
         << indent_block(limit_lines(clean_text(pretty_if_json(text), true), lines, kBlockLineBytes), "        ");
  }

  void received_excerpt_block(const Finding& f) {
    if (f.received.empty()) return;
    const auto ex = received_excerpt(f.received, f.diff, f.message, kDiffLines, kBlockLineBytes);
    std::string label = "received";
    if (!ex.at.empty()) label += " at " + clean_text(ex.at, false);
    if (ex.cut) label += " (cut around the mismatch; -v or the wire log has all of it)";
    out_ << "      " << label << ":\n" << indent_block(clean_text(ex.text, true), "        ");
  }

  void print_wire(const ScenarioResult& r) {
    if (r.wire.empty()) return;
    const std::size_t total = r.wire.size();
    if (!opt_.wire && !opt_.verbose) {
      out_ << paint(kDim, fmt::format("      wire log: {} lines (--wire prints them; json and html reports keep them)", total))
           << "\n";
      return;
    }
    const std::size_t first = opt_.wire || total <= kWireTail ? 0 : total - kWireTail;
    out_ << "      wire" << (first > 0 ? fmt::format(" (last {} of {} lines; --wire shows all)", total - first, total) : std::string())
         << ":\n";
    for (std::size_t i = first; i < total; ++i) {
      const auto& w = r.wire[i];
      std::string text = clean_text(w.text, false);
      if (!opt_.wire) text = truncate_text(text, kWireLineBytes);
      std::string line = fmt::format("      {:>9.1f} ms {} {}{}", w.t_ms, wire_dir_symbol(w.dir),
                                     w.dir == WireEntry::Dir::Stderr ? "stderr: " : "", text);
      const char* colour = w.dir == WireEntry::Dir::Stderr ? "\x1b[33m" : kDim;
      out_ << (w.dir == WireEntry::Dir::Out || w.dir == WireEntry::Dir::In ? line : paint(colour, line)) << "\n";
    }
  }

  void print_quiet(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) {
    for (const auto& r : results)
      if (fails_run(r.verdict, s.strict)) out_ << heading(r) << "\n";
    print_outcome(s, info.duration_ms);
  }

  // Skips, counted per reason: the reasons are few, the skipped cases many.
  void print_skip_reasons(const std::vector<ScenarioResult>& results) {
    std::map<std::string, std::size_t> by_reason;
    for (const auto& r : results)
      if (r.verdict == Verdict::Skip) ++by_reason[verdict_reason(r)];
    if (by_reason.empty()) return;
    std::vector<std::pair<std::string, std::size_t>> sorted(by_reason.begin(), by_reason.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::size_t shown = 0;
    for (const auto& [reason, count] : sorted) {
      if (shown++ == kSkipReasons) {
        out_ << paint(kDim, fmt::format("  ... and {} other skip reasons", sorted.size() - kSkipReasons)) << "\n";
        break;
      }
      out_ << paint(verdict_colour(Verdict::Skip), "SKIP ") << fmt::format(" {:>4} x {}", count, reason) << "\n";
    }
    if (!opt_.verbose) out_ << paint(kDim, "      (-v lists every skipped case)") << "\n";
    out_ << "\n";
  }

  void print_summary(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) {
    out_ << "\n";
    print_skip_reasons(results);

    if (!info.stale_baseline.empty()) {
      out_ << paint("\x1b[33m", fmt::format("Stale baseline entries ({}): they matched no scenario in this run; "
                                            "remove them if the run covered them:",
                                            info.stale_baseline.size()))
           << "\n";
      for (const auto& e : info.stale_baseline) out_ << "  " << clean_text(e, false) << "\n";
      out_ << "\n";
    }

    std::vector<const ScenarioResult*> failing;
    for (const auto& r : results)
      if (fails_run(r.verdict, s.strict)) failing.push_back(&r);
    list_cases(fmt::format("Failing ({}):", failing.size()), failing);
    if (!failing.empty()) {
      out_ << "Re-run one failing case:\n  " << clean_text(rerun_command(info, *failing.front()), false) << "\n\n";
    }

    auto areas = per_area(results, s.strict);
    // Areas where every case passed say nothing area by area: one row holds them all (-v lists them).
    if (!opt_.verbose) {
      AreaCounts passing{"", RunSummary{}};
      std::size_t folded = 0;
      std::erase_if(areas, [&](const AreaCounts& a) {
        if (a.counts.pass != a.counts.total()) return false;
        passing.counts.pass += a.counts.pass;
        ++folded;
        return true;
      });
      if (folded == 1) areas = per_area(results, s.strict);  // one area is its own row
      else if (folded > 1) areas.push_back({fmt::format("({} more, all pass)", folded), passing.counts});
    }
    if (!areas.empty()) {
      std::size_t w = 4;
      for (const auto& a : areas) w = std::max(w, clean_text(a.area, false).size());
      out_ << paint(kBold, fmt::format("  {:<{}}  {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>6}", "area", w, "pass", "fail",
                                       "warn", "skip", "xfail", "xpass", "error"))
           << "\n";
      for (const auto& a : areas) {
        const auto& c = a.counts;
        out_ << fmt::format("  {:<{}}  {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>6}\n", clean_text(a.area, false), w, c.pass,
                            c.fail, c.warn, c.skip, c.xfail, c.xpass, c.error);
      }
      out_ << "\n";
    }
    print_outcome(s, info.duration_ms);
  }

  // The count line and the run's outcome: the last two lines of every console report.
  void print_outcome(const RunSummary& s, double duration_ms) {
    out_ << count_sentence(s)
         << fmt::format(" ({} {} in {})\n", s.total(), s.total() == 1 ? "scenario" : "scenarios", human_ms(duration_ms));
    if (s.failed()) {
      out_ << paint(verdict_colour(Verdict::Fail), "FAILED") << " (exit 1)\n";
    } else if (s.total() == 0) {
      out_ << "Nothing ran: no scenario matched the selection\n";
    } else {
      out_ << paint(verdict_colour(Verdict::Pass), "OK") << (s.skip > 0 ? fmt::format(" ({} skipped, not verified)", s.skip) : "")
           << "\n";
    }
  }

  void list_cases(const std::string& title, const std::vector<const ScenarioResult*>& cases) {
    if (cases.empty()) return;
    out_ << title << "\n";
    std::size_t shown = 0;
    for (const auto* r : cases) {
      if (shown++ == kListedFailures) {
        out_ << fmt::format("  ... and {} more\n", cases.size() - kListedFailures);
        break;
      }
      out_ << "  " << paint(verdict_colour(r->verdict), fmt::format("{:<5}", verdict_label(r->verdict))) << " "
           << clean_text(case_name(*r), false) << "\n";
    }
    out_ << "\n";
  }

  ReportOptions opt_;
  std::ostream& out_;
  std::mutex mu_;
  std::size_t streamed_ = 0;
  std::size_t planned_ = 0;
  bool progress_shown_ = false;
};

}  // namespace

std::unique_ptr<Reporter> make_console_reporter(const ReportOptions& options) {
  return std::make_unique<ConsoleReporter>(options);
}

}  // namespace mcpspec::reports
