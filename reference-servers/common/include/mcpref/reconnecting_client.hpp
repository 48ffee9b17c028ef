// An MCP session that survives its server: connects (initialize, notifications/initialized) on
// first use, restarts the server after it dies, and retries a failed request with bounded
// exponential backoff before giving up with one clear reason. Works over any ClientChannel.
#pragma once

#include "mcpref/backoff.hpp"
#include "mcpref/client_channel.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcpref {

// The server stayed unavailable through every retry, or answered in a way no retry can mend
// (a protocol version this client does not speak). what() is one line for the user.
class ServerUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReconnectOptions {
  std::string client_name = "mcpref-client";
  std::string client_version = "1.0";
  std::string protocol_version = "2024-11-05";  // the version proposed in initialize
  // Versions the client can work with when the server answers another one; empty: only
  // protocol_version. Any other answer ends the connection (ServerUnavailable, no retry).
  std::vector<std::string> accepted_versions;
  Json capabilities = Json::object();
  std::chrono::milliseconds initialize_timeout{2000};
  std::chrono::milliseconds close_grace{500};  // per stage of ClientChannel::close
  BackoffPolicy backoff;
  // Start the server again after it died. Off: the first loss of the server is final.
  bool restart = true;
};

class ReconnectingClient {
 public:
  using ChannelFactory = std::function<std::unique_ptr<ClientChannel>()>;
  // Told about restarts and retries, one line each (for a log or the user's terminal).
  using EventSink = std::function<void(const std::string&)>;

  ReconnectingClient(ChannelFactory factory, ReconnectOptions options, Backoff::Random random = {});
  ~ReconnectingClient();  // shutdown()
  ReconnectingClient(const ReconnectingClient&) = delete;
  ReconnectingClient& operator=(const ReconnectingClient&) = delete;

  void set_event_sink(EventSink sink) { sink_ = std::move(sink); }

  // Connects now unless connected (retrying like call()). Throws ServerUnavailable.
  void connect();
  // Sends the request, waiting `timeout` for its answer. A timeout is followed by
  // notifications/cancelled for that id, then a retry; a lost server is restarted (when
  // `restart`), then the request is sent again; each retry waits the next backoff delay.
  // A JSON-RPC error answer is final: ServerError at once. After the last retry:
  // ServerUnavailable naming the attempts and the last failure. With `retry` false the first
  // failure is final (a caller's own time limit: "give up after 200 ms"): after the
  // cancellation, the RequestTimeout itself is thrown.
  Json call(const std::string& method, const Json& params, std::chrono::milliseconds timeout, bool retry = true);
  // Ends the session in order (ClientChannel::close). Safe to call twice.
  void shutdown();

  bool connected() const;
  Json initialize_result() const;
  // How many times a server has been started (1 after the first connection).
  int starts() const { return starts_; }

 private:
  std::shared_ptr<ClientChannel> ensure_connected();
  void drop(const std::shared_ptr<ClientChannel>& channel);
  void emit(const std::string& line) const;

  ChannelFactory factory_;
  ReconnectOptions options_;
  Backoff::Random random_;
  EventSink sink_;
  mutable std::mutex mutex_;  // guards channel_, initialize_result_, lost_
  std::shared_ptr<ClientChannel> channel_;
  Json initialize_result_;
  bool lost_ = false;  // a server was connected once and then lost
  std::atomic<int> starts_{0};
};

}  // namespace mcpref
