#pragma once
// The server side of Streamable HTTP (protocol 2025-03-26 and later) for testing clients, on
// cpp-httplib: POSTs become Frame events, request POSTs are answered as JSON or as an SSE stream,
// server messages that belong to no pending request go on the client's GET stream (kept until one
// is open), sessions are issued at initialize and required afterwards, streams can be resumed with
// Last-Event-ID. Every HTTP request is kept as a record for scenario checks.
// At 2026-07-28 (a POST without a session id whose body or MCP-Protocol-Version names a modern
// version) it serves statelessly: such POSTs share one session that issues no id, and their
// headers are checked against the body (modern_headers.hpp): a mismatch gets 400 and -32020 and
// is reported as a violation.
#include "harness/transport/http/client_side_server.hpp"
#include "harness/transport/http/modern_headers.hpp"
#include "harness/transport/violations.hpp"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace mcpspec::transport::http {

class StreamableHttpServer : public ClientSideServer {
 public:
  StreamableHttpServer(ClientSideOptions options, EventQueue& events);
  ~StreamableHttpServer() override;

  void start() override;
  std::string url() const override;
  void deliver(const std::string& text, Deadline deadline) override;
  void crash() override;
  void close() override;
  bool session_open() const override;
  int sessions() const override;
  nlohmann::json requests() const override;
  nlohmann::json take_violations() override { return violations_.take(); }
  void stop() override;

 private:
  struct Item {
    std::string event_id, data;
  };
  struct Stream {
    bool is_get = false;
    std::vector<Item> history;             // everything ever sent on this stream, for resumption
    std::set<std::string> pending;         // request ids (dumped JSON) still waiting for a response
    bool complete = false;                 // all its responses are in `history`: end after sending them
    bool aborted = false;                  // cut by a crash: connections drop without a clean end
    bool force_sse = false;                // something other than the response went on it first
    int attach_gen = 0;                    // the newest connection delivering it (older ones end)
    bool attached = false;
    std::size_t delivered = 0;             // GET stream: how far a later plain GET continues
    bool listen = false;                   // a subscriptions/listen POST's stream: keep-alives, open until closed
    int record = -1;                       // its entry in records_ (where how it ended is written)
    std::optional<Clock::time_point> closed_at;
  };
  struct Session {
    std::string id;
    bool alive = true;
    bool answered = false;  // the initialize answer (with the id) went out
    std::string version;    // protocolVersion of that answer
    int next_event = 0, next_stream = 0;
    std::map<int, Stream> streams;
    int get_stream = -1;
    std::map<std::string, int> request_stream;  // pending client request id -> stream
  };

  void on_post(const httplib::Request& req, httplib::Response& res);
  // A modern POST: notes the rules its headers break; answers 400 / -32020 (and returns false)
  // when they do not match the body.
  bool reject_modern_headers(const httplib::Request& req, httplib::Response& res, const nlohmann::json& body,
                             const std::string& what, nlohmann::json& extra);
  void on_get(const httplib::Request& req, httplib::Response& res);
  void on_delete(const httplib::Request& req, httplib::Response& res);
  // --auth: true when the protected-resource gate answered the request (401/403) instead.
  bool refused_by_guard(const httplib::Request& req, httplib::Response& res);
  // Finds the session a request names; on failure sets 400/404 and returns null. Locked.
  Session* session_for(const httplib::Request& req, httplib::Response& res, const std::string& what);
    // `prime`: send the priming event and end (transport_options close_after_priming_retry_ms).
  void serve_stream(httplib::Response& res, const std::string& sid, int stream, std::size_t cursor, bool prime);
  // A listen stream's connection ended: who ended it goes into its HTTP record. Locked; returns
  // the wire-log line.
  std::string listen_ended(Stream& st, int stream, const std::string& by);
  void append(Session& s, int stream, std::string data);
  nlohmann::json facts(bool starts_session, const std::string& sid_header) const;
  void record(const httplib::Request& req, int status, nlohmann::json extra);
  void note(const std::string& line);

  ClientSideOptions options_;
  EventQueue& events_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  Clock::time_point started_ = Clock::now();

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::map<std::string, Session> sessions_;
  std::string current_;  // the newest session: where the scenario's messages go
  int created_ = 0;
  int request_posts_ = 0;  // for response_mode "alternate"
  std::vector<nlohmann::json> records_;
  Violations violations_;
  std::string stateless_;  // the key of the session shared by stateless (modern) POSTs, once made
  // x-mcp-header annotations of the tools the scenario listed to the client (tool -> the
  // annotated argument paths and their header names), learnt as the harness learns them as a client.
  ToolParamHeaders param_headers_;
};

}  // namespace mcpspec::transport::http
