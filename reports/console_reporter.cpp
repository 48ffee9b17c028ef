// Human output: a line per finished case that needs attention (every case with verbose), the
// evidence for failures right under it, and a summary that ends with one command to re-run a
// failing case. Everything a target sent is cleaned before it reaches the terminal, so a server
// cannot move the cursor or recolour the screen through its output.
#include "reports/formats.hpp"
#include "reports/report_text.hpp"
#include "reports/run_facts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <mutex>

namespace mcpspec::reports {

namespace {

// Enough to see the shape of a message without drowning the terminal.
constexpr std::size_t kWireTail = 20;
constexpr std::size_t kWireLineBytes = 300;
constexpr std::size_t kBlockLines = 40;
constexpr std::size_t kBlockLineBytes = 240;
constexpr std::size_t kListedFailures = 50;

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
    std::string protocols = info.protocols.empty() ? "" : " (protocol " + joined(info.protocols) + ")";
    out_ << paint(kBold, fmt::format("mcpspec {}", info.mcpspec_version.empty() ? MCPSPEC_VERSION : info.mcpspec_version))
         << ": " << planned << (planned == 1 ? " scenario" : " scenarios") << " against "
         << clean_text(info.target, false) << protocols << (info.strict ? ", strict" : "") << "\n";
    out_.flush();
  }

  void on_result(const ScenarioResult& r) override {
    std::lock_guard lock(mu_);
    ++streamed_;
    print_case(r);
    out_.flush();
  }

  void on_finish(const RunInfo& info, const std::vector<ScenarioResult>& results,
                 const RunSummary& s) override {
    std::lock_guard lock(mu_);
    // A runner that never streamed still gets the per-case lines, once.
    if (streamed_ == 0) {
      for (const auto& r : results) print_case(r);
    }
    print_summary(info, results, s);
    out_.flush();
    if (!out_) throw std::runtime_error("cannot write the console report (output stream failed)");
  }

 private:
  std::string paint(const char* colour, const std::string& text) const {
    return opt_.color ? std::string(colour) + text + kReset : text;
  }

  std::string heading(const ScenarioResult& r) const {
    std::string line = paint(verdict_colour(r.verdict), fmt::format("{:<5}", verdict_label(r.verdict)));
    line += " " + clean_text(r.id, false);
    if (!r.protocol.empty()) {
      std::string p = r.protocol;
      if (!r.negotiated.empty() && r.negotiated != r.protocol) p += ", negotiated " + r.negotiated;
      line += " [" + clean_text(p, false) + "]";
    }
    if (!r.requirements.empty()) line += " (" + clean_text(joined(r.requirements), false) + ")";
    if (r.verdict != Verdict::Skip) line += " " + human_ms(r.duration_ms);
    return line;
  }

  void print_case(const ScenarioResult& r) {
    if (r.verdict == Verdict::Pass && !opt_.verbose) return;
    out_ << heading(r);
    switch (r.verdict) {
      case Verdict::Pass:
        out_ << "\n";
        return;
      case Verdict::Skip:
        out_ << paint(kDim, " - " + first_line(clean_text(r.reason.empty() ? "no reason given" : r.reason, true), 300)) << "\n";
        return;
      case Verdict::XFail:
        out_ << "\n      expected failure (baseline): " << first_line(clean_text(r.reason, true), 300) << "\n";
        for (const auto& f : r.findings) out_ << "      - " << first_line(clean_text(f.message, true), 300) << "\n";
        return;
      case Verdict::XPass:
        out_ << "\n      passed, but the baseline expects it to fail"
             << (r.reason.empty() ? std::string() : " (" + first_line(clean_text(r.reason, true), 300) + ")")
             << ": remove the entry from the baseline\n";
        return;
      case Verdict::Fail:
      case Verdict::Warn:
      case Verdict::Error:
        out_ << "\n";
        print_evidence(r);
        return;
    }
  }

  void print_evidence(const ScenarioResult& r) {
    if (!r.title.empty()) out_ << paint(kDim, "      " + first_line(clean_text(r.title, true), 200)) << "\n";
    if (r.verdict == Verdict::Error) {
      out_ << "      harness error: "
           << (r.reason.empty() ? std::string("(no reason given)") : first_line(clean_text(r.reason, true), 500))
           << "\n";
    } else if (!r.reason.empty()) {
      out_ << "      " << first_line(clean_text(r.reason, true), 500) << "\n";
    }
    if (!r.section.empty()) out_ << paint(kDim, "      spec section: " + clean_text(r.section, false)) << "\n";
    int n = 0;
    for (const auto& f : r.findings) {
      out_ << fmt::format("  {:>2}) ", ++n) << clean_text(f.message, false) << "\n";
      std::string where = f.requirements.empty() ? std::string() : clean_text(joined(f.requirements), false) + " ";
      out_ << paint(kDim, fmt::format("      {}{}, {}", where, level_name(f.level), step_text(f.step))) << "\n";
      block("expected", f.expected);
      block("received", f.received);
      block("diff", f.diff);
    }
    print_wire(r);
  }

  void block(const char* name, const std::string& text) {
    if (text.empty()) return;
    out_ << "      " << name << ":\n"
         << indent_block(limit_lines(clean_text(pretty_if_json(text), true), kBlockLines, kBlockLineBytes), "        ");
  }

  void print_wire(const ScenarioResult& r) {
    if (r.wire.empty()) return;
    const std::size_t total = r.wire.size();
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

  void print_summary(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) {
    out_ << "\n";
    const auto areas = per_area(results, s.strict);
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

    std::vector<const ScenarioResult*> failing, warnings;
    for (const auto& r : results) {
      if (fails_run(r.verdict, s.strict)) failing.push_back(&r);
      else if (r.verdict == Verdict::Warn) warnings.push_back(&r);
    }
    list_cases(fmt::format("Failing ({}):", failing.size()), failing);
    list_cases(fmt::format("Warnings ({}, not failing without --strict):", warnings.size()), warnings);

    if (!info.stale_baseline.empty()) {
      out_ << paint("\x1b[33m", fmt::format("Stale baseline entries ({}): they matched no scenario in this run; "
                                            "remove them if the run covered them:",
                                            info.stale_baseline.size()))
           << "\n";
      for (const auto& e : info.stale_baseline) out_ << "  " << clean_text(e, false) << "\n";
      out_ << "\n";
    }

    if (!failing.empty()) {
      out_ << "Re-run one failing case:\n  " << clean_text(rerun_command(info, *failing.front()), false) << "\n\n";
    }

    const double duration = info.duration_ms > 0 ? info.duration_ms : 0;
    out_ << count_sentence(s) << fmt::format(" ({} {} in {})", s.total(), s.total() == 1 ? "scenario" : "scenarios",
                                             human_ms(duration))
         << "\n";
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
};

}  // namespace

std::unique_ptr<Reporter> make_console_reporter(const ReportOptions& options) {
  return std::make_unique<ConsoleReporter>(options);
}

}  // namespace mcpspec::reports
