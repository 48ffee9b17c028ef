#include "harness/fuzz/merge.hpp"

#include "harness/fuzz/md_cell.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace mcpspec::fuzz {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json read_report(const fs::path& dir) {
  fs::path file = dir / "report.json";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw MergeError(dir.string() + ": not a folder");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw MergeError(file.string() + ": cannot be read (is " + dir.string() + " the --findings folder of an mcpspec fuzz run?)");
  json report = json::parse(in, nullptr, false);
  if (report.is_discarded() || !report.is_object()) throw MergeError(file.string() + ": not a JSON object");
  if (!report.contains("findings") || !report["findings"].is_array())
    throw MergeError(file.string() + ": no \"findings\" array (not a report of mcpspec fuzz)");
  return report;
}

std::string string_member(const json& finding, const char* name, const fs::path& file, std::size_t i) {
  if (!finding.contains(name) || !finding[name].is_string())
    throw MergeError(fmt::format("{}: /findings/{}: \"{}\" is missing or not a string", file.string(), i, name));
  return finding[name].get<std::string>();
}

// The runs behind a report: itself, or the runs an earlier merge listed.
json runs_of(const json& report, const fs::path& dir) {
  if (report.contains("merged_from") && report["merged_from"].is_array()) return report["merged_from"];
  json run = {{"folder", dir.string()}};
  for (const char* k : {"target", "seed", "jobs", "first_job", "messages_sent", "elapsed_s"})
    if (report.contains(k)) run[k] = report[k];
  run["findings"] = report["findings"].size();
  return json::array({run});
}

// Where this finding was seen: the runs an earlier merge recorded, or the run itself.
json sightings_of(const json& finding, const fs::path& dir) {
  if (finding.contains("found_in") && finding["found_in"].is_array()) return finding["found_in"];
  json at = {{"folder", dir.string()}, {"seen", 1 + finding.value("duplicates", std::size_t{0})}};
  for (const char* k : {"seed", "job", "first_seen_after_messages"})
    if (finding.contains(k)) at[k] = finding[k];
  return json::array({at});
}

std::size_t seen_total(const json& sightings) {
  std::size_t n = 0;
  for (const auto& s : sightings) n += s.value("seen", std::size_t{1});
  return n;
}

std::string markdown(const json& report) {
  std::string md = "# mcpspec fuzz report (merged)\n\n";
  md += fmt::format("{} run(s), {} messages sent in all, {} distinct finding(s).\n\n", report["merged_from"].size(),
                    report["messages_sent"].get<std::size_t>(), report["findings"].size());
  md += "| run folder | target | seed | jobs | messages | findings |\n|---|---|---|---|---|---|\n";
  for (const auto& r : report["merged_from"]) {
    std::string jobs = "-";
    if (r.contains("jobs") && r["jobs"].is_number_integer()) {
      long long first = r.value("first_job", 0LL), n = r["jobs"].get<long long>();
      jobs = fmt::format("{} (indexes {} to {})", n, first, first + std::max(1LL, n) - 1);
    }
    md += fmt::format("| `{}` | `{}` | {} | {} | {} | {} |\n", md_cell(r.value("folder", "?")), md_cell(r.value("target", "?")),
                      r.contains("seed") ? r["seed"].dump() : "-", jobs,
                      r.contains("messages_sent") ? r["messages_sent"].dump() : "-",
                      r.contains("findings") ? r["findings"].dump() : "-");
  }
  for (const auto& e : report["errors"]) md += "\n**error:** " + md_cell(e.get<std::string>()) + "\n";
  if (report["findings"].empty()) return md + "\nNo findings.\n";
  md += "\n| oracle | method | what | reproducer | found by (run folder: seed/job) | seen |\n|---|---|---|---|---|---|\n";
  for (const auto& f : report["findings"]) {
    std::string by;
    for (const auto& s : f["found_in"])
      by += fmt::format("{}`{}`: {}/{}", by.empty() ? "" : ", ", md_cell(s.value("folder", "?")),
                        s.contains("seed") ? s["seed"].dump() : "?", s.contains("job") ? s["job"].dump() : "?");
    std::string file = f.value("reproducer", "");
    md += fmt::format("| {} | `{}` | {} | {} | {} | {} |\n", f.value("oracle", "?"), md_cell(f.value("method", "?")),
                      md_cell(f.value("detail", "")), file.empty() ? "(not written)" : "`" + file + "`", by,
                      f.value("seen", std::size_t{1}));
  }
  return md;
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw MergeError(file.string() + ": cannot be written");
}

}  // namespace

MergeOutcome merge_findings(const std::vector<std::string>& dirs, const std::string& out_dir) {
  if (dirs.empty()) throw MergeError("nothing to merge: name at least one findings folder");
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir)) throw MergeError(out_dir + ": cannot create the folder");
  const fs::path out = fs::canonical(out_dir);

  json merged_from = json::array(), findings = json::array(), errors = json::array();
  std::map<std::string, std::size_t> by_key;  // finding key -> index in `findings`
  std::set<std::string> names;                // file names used in `out`
  std::size_t messages = 0;
  for (const auto& d : dirs) {
    const fs::path dir(d);
    json report = read_report(dir);
    if (fs::equivalent(dir, out, ec)) throw MergeError(d + ": is the --out folder; merge into another one");
    for (auto& run : runs_of(report, dir)) {
      messages += run.value("messages_sent", std::size_t{0});
      merged_from.push_back(std::move(run));
    }
    if (report.contains("errors") && report["errors"].is_array())
      for (const auto& e : report["errors"])
        if (e.is_string()) errors.push_back(d + ": " + e.get<std::string>());
    const fs::path file = dir / "report.json";
    for (std::size_t i = 0; i < report["findings"].size(); ++i) {
      const json& f = report["findings"][i];
      if (!f.is_object()) throw MergeError(fmt::format("{}: /findings/{}: not an object", file.string(), i));
      std::string key = f.contains("key") ? string_member(f, "key", file, i)
                                          : string_member(f, "oracle", file, i) + " | " + string_member(f, "method", file, i) +
                                                " | " + string_member(f, "signature", file, i);
      json sightings = sightings_of(f, dir);
      if (auto it = by_key.find(key); it != by_key.end()) {
        json& kept = findings[it->second];
        for (auto& s : sightings) kept["found_in"].push_back(std::move(s));
        kept["seen"] = seen_total(kept["found_in"]);
        continue;
      }
      json g = f;
      g["key"] = key;
      g.erase("duplicates");
      // The reproducer is found next to the report it is listed in, wherever the run wrote it.
      std::string reproducer = f.value("reproducer", "");
      if (!reproducer.empty()) {
        std::string name = fs::path(reproducer).filename().string();
        fs::path from = dir / name;
        if (!fs::is_regular_file(from, ec)) throw MergeError(from.string() + ": the reproducer listed in " + file.string() + " is missing");
        std::string stem = fs::path(name).stem().string(), target = name;
        for (int n = 2; names.count(target); ++n) target = stem + "-" + std::to_string(n) + ".json";
        names.insert(target);
        fs::copy_file(from, out / target, fs::copy_options::overwrite_existing, ec);
        if (ec) throw MergeError((out / target).string() + ": cannot be written (" + ec.message() + ")");
        g["reproducer"] = (fs::path(out_dir) / target).string();
      }
      g["found_in"] = sightings;
      g["seen"] = seen_total(sightings);
      by_key[key] = findings.size();
      findings.push_back(std::move(g));
    }
  }
  MergeOutcome r;
  r.report = {{"mcpspec_version", MCPSPEC_VERSION},
              {"merged_from", merged_from},
              {"messages_sent", messages},
              {"findings", findings},
              {"errors", errors}};
  r.markdown = markdown(r.report);
  r.findings = findings.size();
  write_text(out / "report.json", r.report.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  write_text(out / "report.md", r.markdown);
  return r;
}

}  // namespace mcpspec::fuzz
