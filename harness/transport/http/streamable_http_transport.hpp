#pragma once
// The Streamable HTTP transport (protocol 2025-03-26 and later), harness side = the client.
// send() is one POST per message; its answer (a JSON body or an SSE stream) is read on a background
// thread with a deadline and a size bound and turns into Frame events. After the handshake a GET
// stream is opened when the server offers one. HTTP-level facts (status, content type, session id,
// stream ends) go into the wire log as transport notes (Stderr events prefixed "http: "), so a
// failing case shows what happened on the wire. Session id, protocol-version header and Origin are
// kept here; raw checks that need them wrong use HttpExchange with explicit headers instead.
#include "harness/transport/http/event_queue.hpp"
#include "harness/transport/http/http_connection.hpp"
#include "harness/transport/http/modern_headers.hpp"
#include "harness/transport/violations.hpp"
#include "harness/transport/http/served_process.hpp"
#include "harness/transport/http/url.hpp"
#include "harness/transport/transport.hpp"

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <condition_variable>
#include <thread>

namespace mcpspec::transport::http {

struct HttpTransportOptions {
  Url url;                                 // the MCP endpoint (for a served process: host/port are replaced)
  std::optional<SpawnOptions> spawn;       // start this server first (--server CMD --port-env NAME)
  std::string port_env = "PORT";
  int startup_timeout_ms = 20000;          // bound on the served process starting to listen
  int connect_timeout_ms = 5000;
  int stream_max_ms = 600000;              // bound on one response stream / the GET stream
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  bool open_get_stream = true;
  std::string origin;                      // sent as Origin when not empty
  Headers headers;                         // sent with every request (a config file's "headers": Authorization, ...)
  int resume_attempts = 3;                 // GET + Last-Event-ID after a stream ends without its answer
  bool keep_session = false;               // once a session id is set, a later initialize keeps it
};

class StreamableHttpTransport : public Transport {
 public:
  explicit StreamableHttpTransport(HttpTransportOptions options);
  ~StreamableHttpTransport() override;

  std::string name() const override { return "http"; }
  void start() override;
  void send(const std::string& frame, Deadline deadline) override;
  void send_raw(const std::string& bytes, Deadline deadline) override;
  Event receive(Deadline deadline) override;
  void close_input() override;
  void signal(int sig) override;
  std::optional<ExitStatus> exit_status() override;
  void stop() override;
  std::string describe() const override;
  Reach reach() const override;

  // For raw HTTP checks: where the endpoint is and the state the transport keeps.
  Url endpoint() const { return url_; }
  std::string session_id() const;
  std::string protocol_header() const;  // the MCP-Protocol-Version value sent, empty if none
  std::string origin() const { return options_.origin; }
  std::size_t max_message_bytes() const { return options_.max_message_bytes; }
  // Before start(): whether to open the standalone GET stream after the handshake (a scenario
  // that checks GET itself keeps it closed: many servers allow one GET stream per session).
  // "open_get_stream": false keeps the standalone GET stream closed for this scenario.
  void configure(const nlohmann::json& options) override;
  // A 2xx JSON answer labelled neither application/json nor text/event-stream (HTTP-15).
  nlohmann::json take_violations() override { return violations_.take(); }
  // Waits (up to `deadline`) until every POST sent so far has its response status. Each POST is a
  // connection of its own, which a server may handle in any order: a raw HTTP check that must come
  // after the messages before it (a DELETE after notifications/initialized) waits for them here.
  // Returns false when the deadline came first.
  bool await_heard(Deadline deadline);

 private:
  struct Stream {
    std::shared_ptr<HttpConnection> conn;
    std::string request_id;  // the POSTed request whose answer it carries ("" for others)
    std::thread thread;
    std::atomic<bool> done{false};
  };
  // Standard headers of every request (session id, protocol version, Origin).
  Headers common_headers() const;
  void post(const std::string& body, Deadline deadline, bool raw);
  // Background: the GET stream (also used to resume a POST stream with Last-Event-ID).
  // The POST's answer; `send` numbers it for Event::send.
  void read_post(std::shared_ptr<HttpConnection> conn, std::string what, std::string request_id, bool initialize,
                 bool initialized_note, std::uint64_t send);
  void run_get(std::string last_event_id, std::string request_id, int attempts_left, long long delay_ms);
  // Reads an SSE body; returns whether a response to `request_id` was seen.
  bool read_sse(HttpConnection& conn, const std::string& what, const std::string& request_id, bool initialize,
                std::string& last_id, long long& retry_ms);
  // `place` names where the text came from, for the framing monitor (Event::place).
  void on_message_text(const std::string& text, const std::string& request_id, bool initialize, bool& answered,
                       const std::string& place);
  void note(const std::string& text) { events_.push(Event{Event::Type::Stderr, "http: " + text, {}}); }
  void launch(std::shared_ptr<HttpConnection> conn, std::function<void()> body, std::string request_id = "");
  // At a modern version a client cancels a request by closing its response stream, and sends no
  // notifications/cancelled over HTTP: true when `msg` was such a cancel and its stream is closed.
  bool cancel_by_closing(const nlohmann::json& msg);
  // One stream counted in `open` has ended; when none is left, waiting receivers are woken.
  void stream_ended(std::atomic<int>& open);
  void reap_finished();
  void post_heard();  // one POST's response status has arrived (or it never will)

  HttpTransportOptions options_;
  Url url_;
  EventQueue events_;
  std::unique_ptr<ServedProcess> served_;
  mutable std::mutex mu_;
  std::string session_id_, protocol_header_;
  std::set<std::string> event_ids_;   // SSE event ids seen in this session (must be unique)
  std::set<std::string> cancelled_;   // request ids we sent notifications/cancelled for (bounded)
  // Modern versions: the x-mcp-header annotations of the tools the server listed (Mcp-Param-*
  // headers of later tools/call POSTs), and the ids of tools/list requests whose answers teach them.
  ToolParamHeaders param_headers_;
  bool modern_ = false;  // a request with a modern version in its _meta went out
  std::string modern_version_;  // that version: the headers of a message that names none
  std::set<std::string> tools_list_ids_;
  Violations violations_;
  bool get_started_ = false;
  std::list<Stream> streams_;
  std::atomic<bool> stopping_{false};
  // Streams that can still deliver messages (reach()): POST answers with their resumptions, and
  // the standalone GET stream with its reconnections. Counted from before send() returns.
  std::atomic<int> answer_streams_{0}, get_streams_{0};
  bool stopped_ = false;
  // POSTs whose response status has not arrived yet (await_heard).
  std::mutex heard_mu_;
  std::condition_variable heard_cv_;
  int posts_unheard_ = 0;
  std::uint64_t sends_ = 0;  // send()/send_raw() calls so far (Event::send); the caller's thread only
};

}  // namespace mcpspec::transport::http
