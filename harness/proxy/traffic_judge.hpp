#pragma once
// Judges the traffic between a real client and a real server, both directions, with the monitors
// and schemas of the negotiated version. The live proxy and `mcpspec validate --trace` both feed it
// line by line, so a trace checked offline gives the same findings as the session did live.
//
// Each side is judged by its own monitor::Monitors (peer = that side): a message is inbound to the
// monitors of its sender and outbound to the monitors of its receiver, so each ledger knows both
// halves of every exchange.
#include "harness/monitor/monitors.hpp"
#include "harness/proxy/trace.hpp"
#include "harness/results/result.hpp"
#include "harness/results/wire_log.hpp"

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace mcpspec::proxy {

// One finding of the proxy: the result finding plus where in the traffic it was seen.
struct TrafficFinding {
  Finding finding;
  int message_index = 0;  // 1-based count of the c2s and s2c lines, in the order they were seen
  Direction dir = Direction::ClientToServer;
  std::string what;       // "[monitor] sentence" (the finding's message without the index)
};

// "#12 s2c MUST BASE-06,MCPSPEC-RESPONSE: [ids] sentence" (the live and the offline line).
std::string finding_line(const TrafficFinding& f);

class TrafficJudge {
 public:
  struct Limits {
    std::size_t max_findings = 1000;      // further findings are counted, not kept
    // The report's wire log (lines are shortened there, never in the traffic itself).
    WireLimits wire{20000, 4096, 64u << 20};
  };
  TrafficJudge();
  explicit TrafficJudge(Limits limits);

  // Judges one complete line (without its newline) and returns what it found. Stderr lines only
  // go to the wire log.
  std::vector<TrafficFinding> judge(Direction dir, const std::string& text, double t_ms);

  // A line mcpspec did not judge (too long for it): noted in the wire log, counted as a message.
  void skip(Direction dir, std::size_t bytes, double t_ms);

  // A harness event worth a line in the wire log ("server exited with exit code 0").
  void event(const std::string& text, double t_ms);

  // The version the rules are read from: negotiated, else proposed, else the latest mcpspec knows.
  const std::string& version() const;

  // The session as one result for the reporters: every finding, the wire log, the verdict.
  ScenarioResult result(const std::string& command, double duration_ms) const;

  std::size_t findings_seen() const { return findings_seen_; }

 private:
  void log(WireEntry::Dir dir, const std::string& text, double t_ms);
  void add(std::vector<TrafficFinding>& out, const monitor::Finding& f, Direction dir, const std::string& received);
  void judge_message(Direction dir, const std::string& text, std::vector<TrafficFinding>& out);

  Limits limits_;
  monitor::Monitors server_side_;  // judges what the server sends
  monitor::Monitors client_side_;  // judges what the client sends
  int index_ = 0;
  double now_ms_ = 0;  // t_ms of the message being judged
  std::size_t findings_seen_ = 0;
  std::set<std::string> reported_;  // monitor|message: one finding per distinct problem
  std::vector<Finding> findings_;
  std::vector<WireEntry> wire_;
  WireLogWriter wire_log_;
};

}  // namespace mcpspec::proxy
