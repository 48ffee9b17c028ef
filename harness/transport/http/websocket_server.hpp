#pragma once
// The server side of the WebSocket transport for testing clients: one listening socket on
// 127.0.0.1, the RFC 6455 opening handshake checked (GET, Upgrade, Sec-WebSocket-Version 13, a
// 16-byte Sec-WebSocket-Key; subprotocol `mcp` when offered), then one JSON-RPC message per text
// frame both ways: client frames must be masked, ours are not. Each accepted connection is a
// session. cpp-httplib cannot hand over a connection after an upgrade, so the handshake is read here
// (bounded head, deadline) and the framing is harness/transport/http/ws_frame.*.
#include "harness/transport/http/client_side_server.hpp"

#include <atomic>
#include <mutex>
#include <memory>
#include <thread>
#include <vector>

namespace mcpspec::transport::http {

class WebSocketServer : public ClientSideServer {
 public:
  WebSocketServer(ClientSideOptions options, EventQueue& events);
  ~WebSocketServer() override;

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
  void accept_loop();
  void serve(int fd);
  // Reads the opening handshake and answers it; false when refused (the connection is closed).
  bool handshake(int fd);
  void write_frame(int fd, const std::string& frame, Deadline deadline);
  void end_connection(int fd, const std::string& why);
  void note(const std::string& line);

  ClientSideOptions options_;
  EventQueue& events_;
  int listen_fd_ = -1;
  int port_ = 0;
  Clock::time_point started_ = Clock::now();
  std::thread acceptor_;
  // One thread per connection; `done` is set as it ends, so the acceptor can join it and count
  // only live ones against RequestLimits::kMaxConnections.
  struct Connection {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::vector<Connection> connections_;
  std::atomic<bool> stopping_{false};

  mutable std::mutex mu_;
  std::mutex write_mu_;
  int current_ = -1;      // the open session's socket, -1 when none
  bool we_closed_ = false;  // close() sent a close frame on current_
  int accepted_ = 0;
  std::vector<nlohmann::json> records_;
};

}  // namespace mcpspec::transport::http
