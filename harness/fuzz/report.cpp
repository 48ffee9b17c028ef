// The campaign report: what was sent, how fast, what restarted the target, and each finding with
// its reproducer file.
#include "harness/fuzz/campaign.hpp"
#include "harness/fuzz/md_cell.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace mcpspec::fuzz {

using nlohmann::json;

namespace {
double rate(const CampaignResult& r) { return r.stats.elapsed_s > 0 ? r.stats.messages / r.stats.elapsed_s : 0; }
double sending_rate(const CampaignResult& r) {
  return r.stats.sending_s > 0 ? r.stats.messages / r.stats.sending_s : 0;
}
}  // namespace

json campaign_report_json(const CampaignOptions& o, const CampaignResult& r) {
  json findings = json::array();
  for (const auto& f : r.findings) {
    json msgs = json::array();
    for (const auto& m : f.messages) msgs.push_back({{"origin", m.origin}, {"bytes", m.bytes.size() > 4096 ? m.bytes.substr(0, 4096) + "..." : m.bytes}});
    findings.push_back({{"key", f.anomaly.key()},
                        {"oracle", f.anomaly.oracle},
                        {"method", f.anomaly.method},
                        {"signature", f.anomaly.signature},
                        {"detail", f.anomaly.detail},
                        {"received", f.anomaly.received},
                        {"requirements", requirements_of(f.anomaly)},
                        {"reproducer", f.file},
                        {"reproduced", f.reproduced},
                        {"replays", f.replays},
                        {"replay_verdict", f.replay_verdict},
                        {"duplicates", f.duplicates},
                        {"first_seen_after_messages", f.first_seen_at},
                        {"seed", o.seed},
                        {"job", f.job},
                        {"messages", msgs}});
  }
  json restarts = json::object();
  for (const auto& [cause, n] : r.stats.restarts) restarts[cause] = n;
  return {{"mcpspec_version", MCPSPEC_VERSION},
          {"target", o.target},
          {"protocol", o.version},
          {"negotiated", r.negotiated},
          {"seed", o.seed},
          {"jobs", o.jobs},
          {"first_job", o.first_job},
          {"window", o.window},
          {"timeout_ms", o.timeout_ms},
          {"call_tools", scenario::call_tools_name(o.call_tools)},
          {"tools", r.tools},
          {"callable_tools", r.callable_tools},
          {"messages_sent", r.stats.messages},
          {"frames_received", r.stats.frames_in},
          {"elapsed_s", r.stats.elapsed_s},
          {"messages_per_s", rate(r)},
          {"messages_per_s_excluding_minimization", sending_rate(r)},
          {"restarts", restarts},
          {"latency_us", {{"p50", r.latency.quantile_us(0.5)}, {"p99", r.latency.quantile_us(0.99)}, {"samples", r.latency.count()}}},
          {"anomalies_seen", r.stats.anomalies},
          {"findings", findings},
          {"errors", r.errors}};
}

std::string campaign_report_markdown(const CampaignOptions& o, const CampaignResult& r) {
  std::string md = "# mcpspec fuzz report\n\n";
  md += fmt::format("- target: `{}`\n- protocol proposed: {} (negotiated: {})\n- seed {}, {} job(s) (indexes {} to {}), window {}, "
                    "timeout {} ms, tools {} ({} callable, --call-tools {})\n",
                    md_cell(o.target), o.version, r.negotiated.empty() ? "none" : r.negotiated, o.seed, o.jobs,
                    o.first_job, o.first_job + std::max(1, o.jobs) - 1, o.window,
                    o.timeout_ms, r.tools, r.callable_tools, scenario::call_tools_name(o.call_tools));
  md += fmt::format("- messages sent: {} in {:.1f} s: **{:.0f} messages/s** ({:.0f}/s not counting minimization)\n",
                    r.stats.messages, r.stats.elapsed_s, rate(r), sending_rate(r));
  md += fmt::format("- response latency: p50 {:.0f} us, p99 {:.0f} us ({} responses; pipelined, so queueing included)\n",
                    r.latency.quantile_us(0.5), r.latency.quantile_us(0.99), r.latency.count());
  std::string restarts;
  for (const auto& [cause, n] : r.stats.restarts) restarts += fmt::format("{}{} {}", restarts.empty() ? "" : ", ", n, cause);
  md += "- restarts: " + (restarts.empty() ? std::string("none") : restarts) + "\n";
  md += fmt::format("- anomalies seen: {}, distinct findings: {}\n\n", r.stats.anomalies, r.findings.size());
  for (const auto& e : r.errors) md += "**error:** " + md_cell(e) + "\n\n";
  if (r.findings.empty()) {
    md += "No findings.\n";
    return md;
  }
  md += "| oracle | method | what | reproducer | replay | seen | job |\n|---|---|---|---|---|---|---|\n";
  for (const auto& f : r.findings) {
    md += fmt::format("| {} | `{}` | {} | {} ({} message(s){}) | {} | {} | {} |\n", f.anomaly.oracle, md_cell(f.anomaly.method),
                      md_cell(f.anomaly.detail), f.file.empty() ? "(not written)" : "`" + f.file + "`", f.messages.size(),
                      f.reproduced ? "" : ", not reproduced", f.replay_verdict.empty() ? "-" : f.replay_verdict,
                      1 + f.duplicates, f.job);
  }
  md += "\n## Evidence\n";
  for (const auto& f : r.findings) {
    md += fmt::format("\n### {} in `{}`: {}\n\n", f.anomaly.oracle, md_cell(f.anomaly.method), md_cell(f.anomaly.signature));
    md += "Sent after the handshake:\n\n```\n";
    for (const auto& m : f.messages) md += (m.bytes.size() > 600 ? m.bytes.substr(0, 600) + "..." : m.bytes) + "\n";
    md += "```\n\nReceived: `" + md_cell(f.anomaly.received.substr(0, 600)) + "`\n";
  }
  return md;
}

}  // namespace mcpspec::fuzz
