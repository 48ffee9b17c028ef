#pragma once
// `mcpspec fuzz merge`: the findings folders of several runs (jobs on other machines, a CI
// matrix, last night and tonight) as one folder: each distinct finding once, with its reproducer
// scenario, which runs found it (seed and job) and how often, and one report over all the runs.
// Findings are the same when their keys are (oracle | method | signature), as within a run.
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace mcpspec::fuzz {

class MergeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MergeOutcome {
  nlohmann::json report;   // what report.json of the merged folder holds
  std::string markdown;    // report.md
  std::size_t findings = 0;
};

// Reads DIR/report.json of every folder in `dirs` (the --findings folder of an `mcpspec fuzz`
// run, or of an earlier merge), copies each distinct finding's scenario file into `out` and writes
// out/report.json and out/report.md. Throws MergeError naming the folder or file that is wrong
// (missing or unreadable report, a finding without oracle/method/signature, `out` being one of
// the inputs, a file that cannot be written).
MergeOutcome merge_findings(const std::vector<std::string>& dirs, const std::string& out);

}  // namespace mcpspec::fuzz
