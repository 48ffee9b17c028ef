#pragma once
// The server side of the 2024-11-05 HTTP+SSE transport for testing clients, on cpp-httplib: each
// GET /sse opens a session whose stream starts with an `endpoint` event naming the POST URI
// (/messages?session_id=ID); the client POSTs every message there (202 Accepted, the message
// becomes a Frame event) and everything the scenario sends goes out as `message` events on the
// stream. Every HTTP request is kept as a record for scenario checks.
#include "harness/transport/http/client_side_server.hpp"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace mcpspec::transport::http {

class LegacySseServer : public ClientSideServer {
 public:
  LegacySseServer(ClientSideOptions options, EventQueue& events);
  ~LegacySseServer() override;

  void start() override;
  std::string url() const override;
  void deliver(const std::string& text, Deadline deadline) override;
  void crash() override;
  void close() override;
  bool session_open() const override;
  int sessions() const override;
  nlohmann::json requests() const override;
  void stop() override;

 private:
  struct Session {
    bool alive = true;
    bool complete = false;  // end the stream cleanly once everything is sent
    bool aborted = false;   // cut the stream
    std::vector<std::string> messages;
  };
  void on_sse(const httplib::Request& req, httplib::Response& res);
  void on_message(const httplib::Request& req, httplib::Response& res);
  void record(const httplib::Request& req, int status, nlohmann::json extra);
  void note(const std::string& line);
  // Ends the current session (Closed event with `why`) unless it already ended. Locked by caller.
  bool end_current(const std::string& id);

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
  std::string current_;
  int created_ = 0;
  std::vector<nlohmann::json> records_;
};

}  // namespace mcpspec::transport::http
