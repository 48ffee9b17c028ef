#include "reports/html_page.hpp"

#include "reports/html_assets.hpp"
#include "reports/json_report.hpp"
#include "reports/report_text.hpp"
#include "reports/run_facts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace mcpspec::reports {

namespace {

// Short aliases: every piece of text from a run goes through h().
std::string h(std::string_view s) { return html_text(s); }

std::string joined(const std::vector<std::string>& v) { return fmt::format("{}", fmt::join(v, ", ")); }

std::string badge(Verdict v) {
  return fmt::format("<span class=\"badge v-{}\">{}</span>", verdict_name(v), verdict_label(v));
}

std::string page_start(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      // No network, no inline event handlers: only our own inline style and script may run.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "script-src 'unsafe-inline'; img-src data:\">"
      "<meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{}</style></head>\n<body>\n",
      h(title), html::kStyle);
}

std::string page_end() { return fmt::format("<script>{}</script>\n</body></html>\n", html::kScript); }

std::string outcome_html(const RunSummary& s) {
  if (s.failed()) return "<span class=\"outcome-failed\">FAILED</span> (exit 1)";
  if (s.total() == 0) return "Nothing ran: no scenario matched the selection";
  return "<span class=\"outcome-ok\">OK</span>" + (s.skip > 0 ? fmt::format(" ({} skipped, not verified)", s.skip) : "");
}

std::string run_facts_table(const HtmlRun& run) {
  const auto& i = run.info;
  std::string out = "<table class=\"facts\">";
  auto row = [&](const char* k, const std::string& v) { out += fmt::format("<tr><td>{}</td><td>{}</td></tr>", k, v); };
  row("outcome", outcome_html(run.summary));
  row("counts", h(count_sentence(run.summary)));
  row("target", h(i.target));
  row("protocols", h(joined(i.protocols)));
  row("started", h(i.started_at));
  row("duration", h(human_ms(i.duration_ms)));
  row("mcpspec", h(i.mcpspec_version));
  row("strict", i.strict ? "yes" : "no");
  if (!i.stale_baseline.empty()) row("stale baseline entries", h(joined(i.stale_baseline)));
  return out + "</table>\n";
}

std::string area_table(const HtmlRun& run) {
  std::string out = "<table class=\"areas\"><tr><th>area</th>";
  const Verdict order[] = {Verdict::Pass, Verdict::Fail, Verdict::Warn, Verdict::Skip, Verdict::XFail, Verdict::XPass, Verdict::Error};
  for (auto v : order) out += fmt::format("<th>{}</th>", badge(v));
  out += "</tr>";
  for (const auto& a : per_area(run.results, run.summary.strict)) {
    out += fmt::format("<tr><td>{}</td>", h(a.area));
    for (auto v : order) out += fmt::format("<td class=\"n\">{}</td>", a.counts.count(v));
    out += "</tr>";
  }
  return out + "</table>\n";
}

std::string pre(const std::string& text) { return "<pre>" + h(pretty_if_json(text)) + "</pre>"; }

std::string finding_html(const Finding& f) {
  std::string out = fmt::format("<div class=\"finding l-{}\"><div>{}</div><div class=\"meta\">{} {}, {}</div>", level_name(f.level),
                                h(f.message), h(joined(f.requirements)), level_name(f.level),
                                f.step < 0 ? std::string("outside the steps (process/monitor)") : fmt::format("at steps[{}]", f.step));
  // Expected and received side by side when both are known, else the one there is.
  if (!f.expected.empty() && !f.received.empty()) {
    out += "<div class=\"evidence\"><div><h4>expected</h4>" + pre(f.expected) + "</div><div><h4>received</h4>" +
           pre(f.received) + "</div></div>";
  } else if (!f.expected.empty()) {
    out += "<h4>expected</h4>" + pre(f.expected);
  } else if (!f.received.empty()) {
    out += "<h4>received</h4>" + pre(f.received);
  }
  if (!f.diff.empty()) out += "<h4>diff</h4>" + pre(f.diff);
  return out + "</div>";
}

std::string wire_html(const std::vector<WireEntry>& wire) {
  if (wire.empty()) return "";
  std::string out = fmt::format("<h4>wire log ({} lines; time since the case started, direction: &gt; to the target, "
                                "&lt; from the target, ! stderr, # harness event)</h4><table class=\"wire\">",
                                wire.size());
  for (const auto& w : wire) {
    out += fmt::format("<tr class=\"w-{}\"><td class=\"n\">{:.1f}&nbsp;ms</td><td>{}</td><td><pre>{}</pre></td></tr>",
                       wire_dir_name(w.dir), w.t_ms > 0 ? w.t_ms : 0.0, h(wire_dir_symbol(w.dir)),
                       (w.dir == WireEntry::Dir::Stderr ? "stderr: " : "") + h(w.text));
  }
  return out + "</table>";
}

std::string case_html(const ScenarioResult& r, const std::string& anchor) {
  std::string tags;
  for (const auto& t : r.tags) tags += (tags.empty() ? "" : " ") + t;
  std::string out = fmt::format(
      "<details class=\"case\" id=\"{}\" data-verdict=\"{}\" data-area=\"{}\" data-level=\"{}\" data-tags=\"{}\">"
      "<summary>{} {}",
      anchor, verdict_name(r.verdict), h(area_of(r)), level_name(r.level), h(tags), badge(r.verdict), h(case_name(r)));
  if (const auto reqs = broken_requirements(r); !reqs.empty()) out += " (" + h(joined(reqs)) + ")";
  if (r.verdict != Verdict::Skip) out += " " + h(human_ms(r.duration_ms));
  if (const auto why = verdict_reason(r); !why.empty()) out += " <span class=\"reason\">" + h(why) + "</span>";
  out += "</summary>";
  out += fmt::format("<div class=\"meta\">{}</div>", h(r.title));
  out += "<table class=\"facts\">";
  auto row = [&](const char* k, const std::string& v) {
    if (!v.empty()) out += fmt::format("<tr><td>{}</td><td>{}</td></tr>", k, h(v));
  };
  row("requirements", joined(r.requirements));
  row("level", level_name(r.level));
  row("spec section", r.section);
  row("scenario file", r.file);
  row("role / transport", r.role + (r.transport.empty() ? "" : " / " + r.transport));
  row("protocol", r.protocol + (r.negotiated.empty() || r.negotiated == r.protocol ? "" : " (negotiated " + r.negotiated + ")"));
  row("tags", joined(r.tags));
  if (r.verdict != Verdict::Fail && r.verdict != Verdict::Warn) row("reason", r.reason);
  out += "</table>";
  for (const auto& f : r.findings) out += finding_html(f);
  out += wire_html(r.wire);
  return out + "</details>\n";
}

// A filter control with one option per value seen.
std::string select_html(const char* key, const char* label, const std::set<std::string>& values) {
  std::string out = fmt::format("<label>{} <select id=\"f-{}\"><option value=\"\">all</option>", label, key);
  for (const auto& v : values) out += fmt::format("<option value=\"{0}\">{0}</option>", h(v));
  return out + "</select></label>";
}

std::string filters_html(const std::vector<const HtmlRun*>& runs) {
  std::set<std::string> verdicts, areas, levels, tags;
  for (const auto* run : runs)
    for (const auto& r : run->results) {
      verdicts.insert(verdict_name(r.verdict));
      areas.insert(area_of(r));
      levels.insert(level_name(r.level));
      tags.insert(r.tags.begin(), r.tags.end());
    }
  return "<div id=\"filters\">" + select_html("verdict", "verdict", verdicts) + select_html("area", "area", areas) +
         select_html("level", "level", levels) + select_html("tag", "tag", tags) + "<span id=\"shown\"></span></div>\n";
}

// The anchor of the i-th result of a run: "case-<i>", or "r<run>-case-<i>" on a matrix page.
std::string anchor_of(const std::string& prefix, std::size_t i) { return fmt::format("{}case-{}", prefix, i); }

// A run's cases grouped by area (sorted), in run order within an area.
std::string cases_html(const HtmlRun& run, const std::string& prefix) {
  std::map<std::string, std::vector<std::size_t>> by_area;
  for (std::size_t i = 0; i < run.results.size(); ++i) by_area[area_of(run.results[i])].push_back(i);
  std::string out;
  for (const auto& [area, indexes] : by_area) {
    out += fmt::format("<section class=\"area\" data-area=\"{0}\"><h3>{0} ({1})</h3>\n", h(area), indexes.size());
    for (auto i : indexes) out += case_html(run.results[i], anchor_of(prefix, i));
    out += "</section>\n";
  }
  return out;
}

int severity(Verdict v) {
  switch (v) {
    case Verdict::Skip: return 0;
    case Verdict::Pass: return 1;
    case Verdict::XFail: return 2;
    case Verdict::Warn: return 3;
    case Verdict::Fail: return 4;
    case Verdict::XPass: return 5;
    case Verdict::Error: return 6;
  }
  return 0;
}

}  // namespace

Verdict verdict_for_requirement(const ScenarioResult& r, const std::string& requirement) {
  if (r.verdict != Verdict::Fail && r.verdict != Verdict::Warn && r.verdict != Verdict::XFail) return r.verdict;
  bool named_any = false;
  for (const auto& f : r.findings) {
    if (f.requirements.empty()) continue;
    named_any = true;
    if (std::find(f.requirements.begin(), f.requirements.end(), requirement) != f.requirements.end()) return r.verdict;
  }
  return named_any ? Verdict::Pass : r.verdict;
}

std::string html_report_page(const HtmlRun& run) {
  std::string out = page_start("mcpspec report: " + run.info.target);
  out += "<h1>mcpspec report</h1>\n" + run_facts_table(run);
  out += "<h2>By area</h2>\n" + area_table(run);
  out += "<h2>Cases</h2>\n" + filters_html({&run}) + cases_html(run, "");
  return out + page_end();
}

std::string html_matrix_page(const std::vector<HtmlRun>& runs) {
  std::string out = page_start("mcpspec matrix");
  out += fmt::format("<h1>mcpspec matrix: {} runs</h1>\n", runs.size());

  // Requirement -> run -> (worst verdict, the case showing it, how many cases).
  struct Cell {
    Verdict verdict = Verdict::Skip;
    std::size_t index = 0;
    int cases = 0;
  };
  std::map<std::string, std::vector<Cell>> rows;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto& results = runs[k].results;
    for (std::size_t i = 0; i < results.size(); ++i) {
      std::set<std::string> reqs(results[i].requirements.begin(), results[i].requirements.end());
      for (const auto& f : results[i].findings) reqs.insert(f.requirements.begin(), f.requirements.end());
      for (const auto& req : reqs) {
        auto& row = rows[req];
        row.resize(runs.size());
        auto& cell = row[k];
        const Verdict v = verdict_for_requirement(results[i], req);
        if (cell.cases == 0 || severity(v) > severity(cell.verdict)) {
          cell.verdict = v;
          cell.index = i;
        }
        ++cell.cases;
      }
    }
  }

  out += "<h2>Runs</h2>\n<table class=\"runs\"><tr><th>run</th><th>target</th><th>protocols</th><th>outcome</th><th>counts</th></tr>";
  for (std::size_t k = 0; k < runs.size(); ++k) {
    out += fmt::format("<tr><td><a href=\"#run-{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", k,
                       h(runs[k].label), h(runs[k].info.target), h(joined(runs[k].info.protocols)),
                       outcome_html(runs[k].summary), h(count_sentence(runs[k].summary)));
  }
  out += "</table>\n<h2>Requirement x run</h2>\n<table class=\"matrix\"><tr><th>requirement</th>";
  for (const auto& run : runs) out += "<th>" + h(run.label) + "</th>";
  out += "</tr>\n";
  for (const auto& [req, cells] : rows) {
    out += "<tr><td>" + h(req) + "</td>";
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const Cell& c = cells[k];
      if (c.cases == 0) {
        out += "<td class=\"none\">-</td>";
        continue;
      }
      const auto& r = runs[k].results[c.index];
      out += fmt::format("<td class=\"cell v-{}\"><a href=\"#{}\" title=\"{}\">{}{}</a></td>", verdict_name(c.verdict),
                         anchor_of(fmt::format("r{}-", k), c.index), h(case_name(r)), verdict_label(c.verdict),
                         c.cases > 1 ? fmt::format(" ({})", c.cases) : std::string());
    }
    out += "</tr>\n";
  }
  out += "</table>\n";

  std::vector<const HtmlRun*> all;
  for (const auto& run : runs) all.push_back(&run);
  out += "<h2>Cases</h2>\n" + filters_html(all);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    out += fmt::format("<h2 id=\"run-{}\">Run {}: {}</h2>\n", k, k + 1, h(runs[k].label)) + run_facts_table(runs[k]);
    out += cases_html(runs[k], fmt::format("r{}-", k));
  }
  return out + page_end();
}

}  // namespace mcpspec::reports
