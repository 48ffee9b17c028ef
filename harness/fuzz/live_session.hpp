#pragma once
// One connection to the target during fuzzing: start and handshake, pipelined sending with a
// window of outstanding requests, and the liveness checks (a ping after anything suspicious).
// The campaign uses it to fuzz; the minimizer uses short-lived ones to replay candidate sequences.
#include "harness/fuzz/anomaly.hpp"
#include "harness/fuzz/fuzz_message.hpp"
#include "harness/fuzz/latency.hpp"
#include "harness/fuzz/tracker.hpp"
#include "harness/transport/transport.hpp"

#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcpspec::fuzz {

// Makes a fresh, not yet started connection to the target (stdio today, HTTP behind the same
// interface later).
using TransportFactory = std::function<std::unique_ptr<transport::Transport>()>;

struct SessionSettings {
  std::string version;                 // the version we propose
  int timeout_ms = 2000;               // how long a request or a liveness ping may take
  int startup_timeout_ms = 20000;      // how long the first answer (initialize) may take
  std::size_t window = 64;             // requests in flight before we wait (1 = lock-step)
  bool list_tools = true;              // fetch tools/list after the handshake
  const protocol::SchemaRegistry* schemas = nullptr;
};

class LiveSession {
 public:
  LiveSession(TransportFactory make, SessionSettings settings);
  ~LiveSession();
  LiveSession(const LiveSession&) = delete;
  LiveSession& operator=(const LiveSession&) = delete;

  // Starts the target and performs the handshake. Misbehaviour seen on the way goes to `out`
  // (with an empty history, it is the handshake's doing). Throws transport::TransportError when
  // the target cannot be started or never answers initialize while still running.
  void start(std::vector<Anomaly>& out);
  // Writes one message; waits only while the window of outstanding requests is full.
  void send(const FuzzMessage& m, std::vector<Anomaly>& out);
  // Pings the target and waits for that answer and every outstanding one (bounded by the
  // timeout). True when the target is alive and everything owed has arrived or been dealt with.
  bool settle(std::vector<Anomaly>& out);
  void stop();

  bool alive() const { return alive_; }
  // "crash" or "hang" once the target is gone or given up on; "closed 1007 (not UTF-8)" when a
  // WebSocket peer ended the session as RFC 6455 requires after a frame that was not UTF-8.
  const std::string& death() const { return death_; }
  const std::vector<FuzzMessage>& history() const { return history_; }
  std::size_t history_bytes() const { return history_bytes_; }
  void clear_history();
  const nlohmann::json& tools() const { return tools_; }
  const nlohmann::json& server_capabilities() const { return capabilities_; }
  const std::string& negotiated() const { return tracker_.version(); }
  const LatencyHistogram& latency() const { return latency_; }
  std::size_t frames_received() const { return frames_in_; }
  const std::deque<std::string>& stderr_tail() const { return stderr_tail_; }

 private:
  // Handles one transport event; false when it was a timeout.
  bool pump(Deadline deadline, std::vector<Anomaly>& out);
  // `index`: the history (or probe) index of what the bytes are, so a refusal can be placed.
  void write(const std::string& bytes, std::vector<Anomaly>& out, std::optional<std::size_t> index = std::nullopt);
  // An HTTP error status for one of our POSTs (transport::Event::Type::Rejected).
  void on_rejected(const transport::Event& ev, std::vector<Anomaly>& out);
  void on_frame(const std::string& text, std::vector<Anomaly>& out);
  // The history index of send number `send` (counted per transport), if still remembered.
  std::optional<std::size_t> index_of_send(std::uint64_t send) const;
  void on_gone(std::vector<Anomaly>& out, std::optional<transport::ExitStatus> status, const std::string& how);
  void declare_hang(std::vector<Anomaly>& out, const std::string& why);

  TransportFactory make_;
  SessionSettings settings_;
  std::unique_ptr<transport::Transport> transport_;
  Tracker tracker_;
  std::vector<FuzzMessage> history_;
  std::size_t history_bytes_ = 0;
  bool alive_ = false;
  std::string death_;
  // A text frame that is not UTF-8 went out in this session: a WebSocket close with status 1007
  // (kCloseInvalidPayload) is then the peer's duty, not a crash.
  bool sent_not_utf8_ = false;
  static constexpr int kCloseInvalidPayload = 1007;
  nlohmann::json tools_ = nlohmann::json::array();
  nlohmann::json capabilities_ = nlohmann::json::object();
  LatencyHistogram latency_;
  std::size_t frames_in_ = 0;
  long long probe_ = 0;
  std::deque<std::string> stderr_tail_;
  // Set while waiting for one particular answer (initialize, tools/list, the liveness ping).
  std::optional<std::size_t> awaited_index_;
  bool awaited_done_ = false;
  nlohmann::json awaited_result_ = nullptr;
  std::string awaited_refused_;  // the awaited message was refused at the HTTP level: how
  // What the last kSendRing sends of this transport were (Event::send -> history index).
  static constexpr std::size_t kSendRing = 4096;
  std::uint64_t sends_ = 0;
  std::vector<std::optional<std::size_t>> sent_index_ = std::vector<std::optional<std::size_t>>(kSendRing);
};

}  // namespace mcpspec::fuzz
