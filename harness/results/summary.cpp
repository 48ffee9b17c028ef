#include "harness/results/summary.hpp"

namespace mcpspec {

bool fails_run(Verdict v, bool strict) {
  return v == Verdict::Fail || v == Verdict::XPass || v == Verdict::Error || (strict && v == Verdict::Warn);
}

bool RunSummary::failed() const {
  for (Verdict v : {Verdict::Fail, Verdict::XPass, Verdict::Error, Verdict::Warn, Verdict::Pass, Verdict::Skip,
                    Verdict::XFail})
    if (count(v) > 0 && fails_run(v, strict)) return true;
  return false;
}

int RunSummary::count(Verdict v) const {
  switch (v) {
    case Verdict::Pass: return pass;
    case Verdict::Fail: return fail;
    case Verdict::Warn: return warn;
    case Verdict::Skip: return skip;
    case Verdict::XFail: return xfail;
    case Verdict::XPass: return xpass;
    case Verdict::Error: return error;
  }
  return 0;
}

void count_verdict(RunSummary& s, Verdict v) {
  switch (v) {
    case Verdict::Pass: ++s.pass; break;
    case Verdict::Fail: ++s.fail; break;
    case Verdict::Warn: ++s.warn; break;
    case Verdict::Skip: ++s.skip; break;
    case Verdict::XFail: ++s.xfail; break;
    case Verdict::XPass: ++s.xpass; break;
    case Verdict::Error: ++s.error; break;
  }
}

RunSummary summarize(const std::vector<ScenarioResult>& results, bool strict) {
  RunSummary s;
  s.strict = strict;
  for (const auto& r : results) count_verdict(s, r.verdict);
  return s;
}

int exit_code(const RunSummary& s) { return s.failed() ? 1 : 0; }

}  // namespace mcpspec
