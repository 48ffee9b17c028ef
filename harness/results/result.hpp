#pragma once
// What running one scenario produced: the verdict, the findings behind it and the wire log.
// Reporters (reports/) read only these types.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace mcpspec {

enum class Verdict { Pass, Fail, Warn, Skip, XFail, XPass, Error };

// Stable lower-case names used in every report ("pass", "fail", ...).
const char* verdict_name(Verdict v);
// Upper-case label for humans ("PASS", "FAIL", ...).
const char* verdict_label(Verdict v);

enum class Level { Must, Should, May, Info };
const char* level_name(Level l);  // "MUST", "SHOULD", "MAY", "INFO"

// One thing that went wrong (or, for Error, could not be done).
struct Finding {
  std::vector<std::string> requirements;  // requirement ids, e.g. {"BASE-06"}
  Level level = Level::Must;
  std::string message;                    // one readable sentence
  int step = -1;                          // index of the step (in the scenario's own list), -1 = monitor/process
  std::string expected;                   // optional: what the scenario expected (matcher, pretty JSON)
  std::string received;                   // optional: what arrived (pretty JSON or text)
  std::string diff;                       // optional: path-by-path mismatch explanation
};

// FAIL on any MUST finding, WARN on any SHOULD finding, PASS otherwise.
Verdict verdict_from(const std::vector<Finding>& findings);

// One line of the wire log.
struct WireEntry {
  enum class Dir { Out, In, Stderr, Event };
  double t_ms = 0;   // since the scenario started
  Dir dir = Dir::Event;
  std::string text;  // the frame, a stderr line, or a harness event ("spawned pid 123", "exit code 0")
};
const char* wire_dir_symbol(WireEntry::Dir d);  // ">" "<" "!" "#"

struct ScenarioResult {
  std::string id;
  std::string title;
  std::string file;                       // path of the scenario file
  std::string area;                       // first path segment after the suite, e.g. "lifecycle"
  std::string protocol;                   // the version the harness proposed
  std::string negotiated;                 // the version the peer answered ("" if none)
  std::string role;                       // "server" or "client" (the role of the target)
  std::string transport;                  // "stdio", ...
  std::vector<std::string> requirements;  // what the scenario tests
  Level level = Level::Must;
  std::string section;                    // spec section of the first requirement (from the catalog)
  std::vector<std::string> tags;
  Verdict verdict = Verdict::Pass;
  std::string reason;                     // skip reason, error text, or baseline reason
  std::vector<Finding> findings;
  std::vector<WireEntry> wire;
  double duration_ms = 0;
};

struct RunSummary {
  int pass = 0, fail = 0, warn = 0, skip = 0, xfail = 0, xpass = 0, error = 0;
  bool strict = false;
  int total() const { return pass + fail + warn + skip + xfail + xpass + error; }
  int count(Verdict v) const;
  // True when the run should exit 1: some verdict that fails_run() (summary.hpp).
  bool failed() const;
};

struct RunInfo {
  std::string mcpspec_version;
  std::string target;                     // the --server/--client/--url given, or the default target name
  std::string started_at;                 // ISO 8601 UTC
  double duration_ms = 0;
  std::vector<std::string> protocols;     // versions the run proposed
  bool strict = false;
  std::vector<std::string> stale_baseline;  // baseline entries that matched no scenario
};

}  // namespace mcpspec
