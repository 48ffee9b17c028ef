// JUnit XML for CI systems (GitLab, Jenkins, GitHub test-report actions): one <testsuite> per area,
// one <testcase> per scenario and protocol. The mapping follows what those tools count:
// failures fail the build, errors are harness trouble, skipped is neither.
#include "reports/formats.hpp"
#include "reports/report_file.hpp"
#include "reports/report_text.hpp"
#include "reports/run_facts.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace mcpspec::reports {

namespace {

constexpr std::size_t kMessageBytes = 500;

std::string seconds(double ms) { return fmt::format("{:.3f}", std::isfinite(ms) && ms > 0 ? ms / 1000.0 : 0.0); }

std::string findings_text(const ScenarioResult& r) {
  std::string out;
  int n = 0;
  for (const auto& f : r.findings) {
    out += fmt::format("{}) {}\n", ++n, f.message);
    out += fmt::format("   level {}{}, {}\n", level_name(f.level),
                       f.requirements.empty() ? "" : fmt::format(", requirements {}", fmt::join(f.requirements, ", ")),
                       f.step < 0 ? std::string("outside the steps") : fmt::format("steps[{}]", f.step));
    if (!f.expected.empty()) out += "   expected:\n" + pretty_if_json(f.expected) + "\n";
    if (!f.received.empty()) out += "   received:\n" + pretty_if_json(f.received) + "\n";
    if (!f.diff.empty()) out += "   diff:\n" + f.diff + "\n";
  }
  return out;
}

// CI servers load these files whole; one runaway stream must not make the report unusable. The
// JSON report keeps everything.
constexpr std::size_t kWireEntryBytes = 256 * 1024;
constexpr std::size_t kWireCaseBytes = 2 * 1024 * 1024;

std::string wire_text(const ScenarioResult& r) {
  std::string out;
  for (std::size_t i = 0; i < r.wire.size(); ++i) {
    const auto& w = r.wire[i];
    if (out.size() > kWireCaseBytes) {
      out += fmt::format("... [{} more wire lines; the JSON report has them all]\n", r.wire.size() - i);
      break;
    }
    out += fmt::format("{:>9.1f} ms {} {}{}\n", w.t_ms, wire_dir_symbol(w.dir),
                       w.dir == WireEntry::Dir::Stderr ? "stderr: " : "",
                       truncate_text(valid_utf8(w.text), kWireEntryBytes));
  }
  return out;
}

std::string headline(const ScenarioResult& r) {
  if (!r.findings.empty()) return r.findings.front().message;
  if (!r.reason.empty()) return r.reason;
  return verdict_label(r.verdict);
}

class JunitReporter final : public Reporter {
 public:
  explicit JunitReporter(std::string path) : path_(std::move(path)) {}

  void on_finish(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) override {
    write_report(path_, "junit", render(info, results, s));
  }

 private:
  static std::string render(const RunInfo& info, const std::vector<ScenarioResult>& results, const RunSummary& s) {
    std::map<std::string, std::vector<const ScenarioResult*>> by_area;
    for (const auto& r : results) by_area[area_of(r)].push_back(&r);

    std::string suites;
    int all_failures = 0, all_errors = 0, all_skipped = 0;
    double all_ms = 0;
    for (const auto& [area, cases] : by_area) {
      int failures = 0, errors = 0, skipped = 0;
      double ms = 0;
      std::string body;
      for (const auto* r : cases) {
        switch (r->verdict) {
          case Verdict::Fail:
          case Verdict::XPass: ++failures; break;
          case Verdict::Warn: failures += s.strict ? 1 : 0; break;
          case Verdict::Error: ++errors; break;
          case Verdict::Skip:
          case Verdict::XFail: ++skipped; break;
          case Verdict::Pass: break;
        }
        if (std::isfinite(r->duration_ms) && r->duration_ms > 0) ms += r->duration_ms;
        body += testcase(area, *r, s.strict);
      }
      all_failures += failures;
      all_errors += errors;
      all_skipped += skipped;
      all_ms += ms;
      suites += fmt::format(
          "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\"{}>\n",
          xml_attr("mcpspec." + area), cases.size(), failures, errors, skipped, seconds(ms),
          info.started_at.empty() ? std::string() : " timestamp=\"" + xml_attr(info.started_at) + "\"");
      suites += "    <properties>\n";
      suites += property("target", info.target, 6);
      suites += property("protocols", fmt::format("{}", fmt::join(info.protocols, " ")), 6);
      suites += property("strict", info.strict ? "true" : "false", 6);
      suites += "    </properties>\n";
      suites += body;
      suites += "  </testsuite>\n";
    }
    const double run_ms = info.duration_ms > 0 ? info.duration_ms : all_ms;
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += fmt::format(
        "<testsuites name=\"mcpspec\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\">\n",
        results.size(), all_failures, all_errors, all_skipped, seconds(run_ms));
    xml += suites;
    xml += "</testsuites>\n";
    return xml;
  }

  static std::string property(const std::string& name, const std::string& value, int indent) {
    return fmt::format("{:{}}<property name=\"{}\" value=\"{}\"/>\n", "", indent, xml_attr(name), xml_attr(value));
  }

  static std::string testcase(const std::string& area, const ScenarioResult& r, bool strict) {
    std::string out = fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"{}>\n",
                                  xml_attr("mcpspec." + area), xml_attr(case_name(r)), seconds(r.duration_ms),
                                  r.file.empty() ? std::string() : " file=\"" + xml_attr(r.file) + "\"");
    out += "      <properties>\n";
    for (const auto& req : r.requirements) out += property("requirement", req, 8);
    out += property("level", level_name(r.level), 8);
    out += property("verdict", verdict_name(r.verdict), 8);
    if (!r.section.empty()) out += property("section", r.section, 8);
    if (!r.negotiated.empty()) out += property("negotiated", r.negotiated, 8);
    out += "      </properties>\n";

    const std::string message = first_line(valid_utf8(headline(r)), kMessageBytes);
    std::string note;  // goes to <system-out> ahead of the wire log
    switch (r.verdict) {
      case Verdict::Fail:
        out += element("failure", message, "FAIL", findings_text(r));
        break;
      case Verdict::XPass:
        out += element("failure", "passed, but the baseline expects it to fail: remove the entry from the baseline",
                       "XPASS", "baseline reason: " + r.reason + "\n");
        break;
      case Verdict::Warn:
        if (strict) out += element("failure", message, "WARN", findings_text(r));
        else note = "WARN (a SHOULD-level finding; fails only with --strict):\n" + findings_text(r);
        break;
      case Verdict::Error:
        out += element("error", r.reason.empty() ? message : first_line(valid_utf8(r.reason), kMessageBytes),
                       "ERROR", r.reason + "\n" + findings_text(r));
        break;
      case Verdict::Skip:
        out += fmt::format("      <skipped message=\"{}\"/>\n",
                           xml_attr(first_line(valid_utf8(r.reason.empty() ? "skipped" : r.reason), kMessageBytes)));
        break;
      case Verdict::XFail:
        out += fmt::format("      <skipped message=\"{}\"/>\n",
                           xml_attr(first_line(valid_utf8("expected failure (baseline): " + r.reason), kMessageBytes)));
        note = "XFAIL (listed in the baseline):\n" + findings_text(r);
        break;
      case Verdict::Pass:
        break;
    }
    const std::string wire = wire_text(r);
    if (!note.empty() || !wire.empty()) {
      out += "      <system-out>" + xml_text(note + (note.empty() || wire.empty() ? "" : "\n") +
                                             (wire.empty() ? "" : "wire log:\n" + wire)) +
             "</system-out>\n";
    }
    out += "    </testcase>\n";
    return out;
  }

  static std::string element(const char* tag, const std::string& message, const char* type, const std::string& text) {
    return fmt::format("      <{} message=\"{}\" type=\"{}\">{}</{}>\n", tag, xml_attr(message), type, xml_text(text), tag);
  }

  std::string path_;
};

}  // namespace

std::unique_ptr<Reporter> make_junit_reporter(const std::string& path) {
  return std::make_unique<JunitReporter>(path);
}

}  // namespace mcpspec::reports
