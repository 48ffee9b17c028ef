#pragma once
// The oracles that judge each frame the target writes: it knows every request in flight (so a
// response can be matched to the message it answers, even with many outstanding) and what each
// message is owed. Pure bookkeeping: no I/O, so it is tested frame by frame. A frame's framing,
// envelope and schema are judged by the scenario conversations' monitors (harness/monitor/);
// which request a response answers stays the tracker's own, because the fuzzer sends ids that are
// ambiguous, malformed or reused on purpose, which the monitors' ledger would report as the
// target's fault. The target's own requests and notifications go through the stateful monitors too
// (ids, lifecycle, capabilities, progress, cancellation: the `monitor` oracle), fed with what the
// fuzzer sent.
#include "harness/fuzz/anomaly.hpp"
#include "harness/fuzz/fuzz_message.hpp"
#include "harness/monitor/monitors.hpp"
#include "harness/util/clock.hpp"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace mcpspec::protocol {
class SchemaRegistry;
}

namespace mcpspec::fuzz {

class Tracker {
 public:
  Tracker(const protocol::SchemaRegistry& schemas, std::string version);
  void set_version(std::string v) { version_ = std::move(v); }
  const std::string& version() const { return version_; }

  // A message about to be written; `index` is its place in the session's history.
  void on_sent(const FuzzMessage& m, std::size_t index, Clock::time_point at);
  // A new target process (a new MCP session), and its handshake's notifications/initialized sent.
  void new_session() { monitors_.reset(); }
  void initialized_sent();

  struct Result {
    std::vector<Anomaly> anomalies;
    std::optional<nlohmann::json> reply;    // what to answer a request the target sent us
    std::optional<double> latency_us;       // a response matched one of ours
    std::optional<std::size_t> answered;    // history index of the request it answered
    nlohmann::json result = nullptr;        // the matched response's result (or null)
  };
  Result on_frame(const std::string& text, Clock::time_point at);
  // A frame longer than the transport's limit.
  Anomaly oversize(const std::string& what) const;
  // The message at history `index` was refused at the HTTP level (an error status whose body,
  // `body`, answers no request id). That settles whatever it was owed. Fair for malformed input,
  // notifications, batches and, when `lenient` (a very large body), anything; for a well-formed
  // request it is a finding: a request is owed a JSON-RPC answer (HTTP-15).
  std::vector<Anomaly> on_rejected(std::size_t index, int http_status, const std::string& body, bool lenient);

  struct Pending {
    std::size_t index = 0;
    std::string method;
    nlohmann::json id;
    Clock::time_point sent;
    Demand demand = Demand::None;
    bool optional = false;     // malformed or cancelled: an answer may or may not come
    bool cancellable = false;  // a tools/call: a slow one is cancelled rather than reported
    bool ambiguous = false;    // its id was in flight twice: an answer cannot be told apart
    bool deep = false;         // nests so deep that an echo of it cannot be read
  };
  // Requests still waiting that a correct target must answer.
  std::size_t outstanding() const { return required_; }
  std::size_t pending() const { return by_seq_.size(); }
  // Requests sent before `before` that are still waiting, oldest first.
  std::vector<Pending> waiting_since(Clock::time_point before) const;
  bool is_pending(const nlohmann::json& id) const;
  // Tool calls in flight that are still owed an answer, and the oldest of them.
  std::size_t calls_in_flight() const;
  std::optional<Pending> oldest_call() const;
  void forget(const nlohmann::json& id);
  // Drops all bookkeeping tied to history indexes (at a checkpoint, after everything settled).
  void reset();

 private:
  void judge_response(const nlohmann::json& msg, Clock::time_point at, Result& out);
  void feed_monitors(const FuzzMessage& m);
  void judge_by_monitors(const nlohmann::json& msg, const protocol::Classified& c, const std::string& text,
                         Result& out);
  void add_pending(Pending p);
  void remove_pending(std::map<std::size_t, Pending>::iterator it);

  const protocol::SchemaRegistry& schemas_;
  std::string version_;
  monitor::Monitors monitors_;
  std::map<std::size_t, Pending> by_seq_;                 // send order -> pending request
  std::unordered_map<std::string, std::deque<std::size_t>> by_id_;  // id key -> send order (oldest first)
  std::size_t seq_ = 0, required_ = 0;
  // Malformed messages, oldest first: each may be answered by one error with id null.
  struct Malformed { std::size_t index; Demand demand; std::string method; };
  std::deque<Malformed> malformed_;
  // Ids of malformed messages that MCP does not allow (1.5, true, {}...): a server may echo them.
  std::deque<std::pair<nlohmann::json, Malformed>> odd_ids_;
  // Messages sent nested nearly as deep as the peer reader's limit: each may come back in a
  // frame too deep to read. Kept across checkpoints (such an answer may arrive after one).
  std::size_t deep_sent_ = 0;
  // Id keys remembered in the order first seen; past `cap` the oldest is forgotten.
  class RecentKeys {
   public:
    explicit RecentKeys(std::size_t cap) : cap_(cap) {}
    void insert(const std::string& key) {
      if (!set_.insert(key).second) return;
      order_.push_back(key);
      if (order_.size() > cap_) {
        set_.erase(order_.front());
        order_.pop_front();
      }
    }
    bool contains(const std::string& key) const { return set_.count(key) > 0; }
    bool erase(const std::string& key) { return set_.erase(key) > 0; }

   private:
    std::size_t cap_;
    std::unordered_set<std::string> set_;
    std::deque<std::string> order_;
  };
  RecentKeys precancelled_{256};   // ids cancelled before their request was sent
  RecentKeys answered_{4096};      // recently answered ids
  RecentKeys sent_ids_{4096};      // ids we used
  RecentKeys forgotten_{4096};     // given up on (cancelled, timed out)
  RecentKeys reused_{4096};        // ids we sent more than once (MCP forbids it): answers not judged
};

// At most `n` bytes of `s` for a report, with the full length noted when cut.
std::string shorten(const std::string& s, std::size_t n = 300);

}  // namespace mcpspec::fuzz
