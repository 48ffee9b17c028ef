#pragma once
// The MCP logic behind the HTTP front: one mcpspec-testserver (stdio) child per HTTP session.
// Lines it writes are sorted: a response goes to whoever waits for its id; everything else
// (notifications, server requests) goes to the stream the front chooses.
#include <nlohmann/json.hpp>
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace httpfront {

class BackendProcess {
 public:
  // `everything_unsolicited`: responses are not sorted out (the legacy SSE front streams them all).
  BackendProcess(const std::string& command, bool everything_unsolicited);
  ~BackendProcess();
  BackendProcess(const BackendProcess&) = delete;
  BackendProcess& operator=(const BackendProcess&) = delete;

  bool write_line(const std::string& line);
  // Waits for the response whose id serializes to `id_key`. A cancelled request (see cancel())
  // that has no response yet ends the wait at once with `cancelled` set.
  struct Waited {
    std::optional<nlohmann::json> response;
    bool cancelled = false;
  };
  Waited await_response(const std::string& id_key, std::chrono::milliseconds max);
  std::optional<nlohmann::json> wait_response(const std::string& id_key, std::chrono::milliseconds max) {
    return await_response(id_key, max).response;
  }
  // Waits until the response to `id_key` is there, something else the backend says is waiting, or
  // `max` passes (only what `mine` accepts counts); returns a copy of the response if it came first (it stays to be taken). The
  // front decides a 2026-07-28 answer's HTTP status from an error answered at once.
  using Filter = std::function<bool(const nlohmann::json&)>;
  std::optional<nlohmann::json> peek_response(const std::string& id_key, std::chrono::milliseconds max,
                                              const Filter& mine = {});
  // The client cancelled that request: the test server drops slow ones, so nobody should wait on.
  // A cancellation may also overtake its request (two POSTs on two connections): one for an id
  // nobody waits for yet is remembered, and a wait for that id then lasts at most 100 ms.
  void cancel(const std::string& id_key);
  // Messages that are not responses, oldest first (taken out); with `accept`, the oldest one it
  // accepts (a 2026-07-28 stream takes only what belongs to its request or to no request).
  std::optional<nlohmann::json> next_unsolicited(std::chrono::milliseconds max, const Filter& accept = {});
  bool alive() const { return !dead_; }
  bool has_unsolicited() {
    std::lock_guard<std::mutex> lock(mu_);
    return !unsolicited_.empty();
  }

 private:
  void read_loop();

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  // Responses not yet taken, by id; oldest first (a client may have one id in flight twice).
  std::multimap<std::string, nlohmann::json> responses_;
  std::set<std::string> cancelled_;
  std::multiset<std::string> waiting_;  // ids a POST is waiting for now
  std::set<std::string> precancelled_;  // cancelled before anyone waited for them (bounded)
  std::set<std::string> answered_;      // ids whose answer a POST took (bounded): a late cancel
                                        // of one must not mark a later request reusing the id
  std::deque<nlohmann::json> unsolicited_;
  std::atomic<bool> dead_{false};
  bool all_unsolicited_ = false;
  std::mutex write_mu_;
};

}  // namespace httpfront
