#pragma once
// Expected failures. A baseline file lists the cases a target is known to fail, so CI can gate on
// "nothing new broke" while the known gaps are being fixed:
//   {"format": "mcpspec-baseline", "version": 1,
//    "expected_failures": [{"id": "mcp/tools/*", "protocol": "2025-11-25", "reason": "..."}]}
// `id` (and `protocol`, if given) are fnmatch(3) globs; no `protocol` means every version.
// An id "SCENARIO#REQ-ID" expects only that requirement's findings: the scenario's other checks
// still count (one known deviation does not excuse the rest). Full description: docs/reports.md.
#include "harness/results/result.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace mcpspec {

struct BaselineEntry {
  std::string id;           // scenario id or glob (without the "#REQ-ID" part)
  std::string protocol;     // "" = any protocol version
  std::string reason;       // why the failure is expected (required, non-empty)
  std::string requirement;  // "" = the whole scenario; else only findings naming this requirement
};

class Baseline {
 public:
  Baseline() = default;  // empty: nothing is expected to fail

  // Reads and checks a baseline file. Throws std::runtime_error "FILE: /expected_failures/3/id: ..."
  // naming the file and the JSON pointer of the first problem.
  static Baseline load(const std::string& path);
  // The same checks on an already parsed document; `source` names it in error messages.
  static Baseline from_json(const nlohmann::json& doc, const std::string& source);

  // The whole-scenario entry that expects this case to fail, or nullptr. When several match, the
  // most specific wins: exact id before glob, a named protocol before "any"; ties go to the
  // earlier entry. Marks the entry used. Safe to call from several threads.
  const BaselineEntry* match(const std::string& id, const std::string& protocol) const;
  // The requirement entries for this case, the most specific one per requirement (same ranking).
  // Marks them used.
  std::vector<const BaselineEntry*> match_requirements(const std::string& id, const std::string& protocol) const;

  // Entries that no match() call has returned, as "id [protocol]" / "id [any protocol]". Given the
  // versions a run used, an entry for none of them is not stale: that run could not match it.
  std::vector<std::string> stale(const std::vector<std::string>& protocols_run = {}) const;

  const std::vector<BaselineEntry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<BaselineEntry> entries_;
  std::unique_ptr<std::atomic<bool>[]> used_;
};

// The verdict after the baseline. With an entry: FAIL and ERROR -> XFAIL, WARN -> XFAIL under
// strict (else it stays WARN, which does not fail the run anyway), PASS -> XPASS (fails the run:
// the baseline must be updated), SKIP stays SKIP. Without an entry the raw verdict stays.
// A verdict that is already XFAIL/XPASS is returned unchanged.
Verdict apply_baseline(Verdict raw, bool strict, const BaselineEntry* entry);

// The baseline on a result. A whole-scenario entry: apply_baseline() above; when the verdict
// changes, `reason` becomes the baseline's reason and an ERROR's own text is kept after it
// ("<reason> (harness error: <text>)"). Otherwise requirement entries excuse the findings that
// name their requirement: the verdict of the other findings stands (FAIL or WARN: something new
// broke); when none is left, an entry whose requirement has no finding any more makes it XPASS,
// else it is XFAIL (a WARN whose excused findings are all SHOULDs stays WARN unless strict).
// ERROR and SKIP are never excused by a requirement entry.
void apply_baseline(ScenarioResult& r, bool strict, const Baseline& baseline);

// A baseline document expecting every FAIL, ERROR, WARN and XFAIL of a run (one entry per id and
// protocol; XPASS cases are left out because they now pass). New reasons read
// "recorded <date>: <first finding message>"; XFAIL entries keep the reason they already had.
nlohmann::json make_baseline(const std::vector<ScenarioResult>& results);
nlohmann::json make_baseline(const std::vector<ScenarioResult>& results, const std::string& date);

}  // namespace mcpspec
