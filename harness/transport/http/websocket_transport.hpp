#pragma once
// A WebSocket transport (tamamo-x-mcp documents one): one JSON-RPC message per text frame, over a
// plain ws:// connection. The handshake is checked (101, Sec-WebSocket-Accept); pings are
// answered; a close frame or a broken frame ends the connection (Closed event).
#include "harness/transport/http/event_queue.hpp"
#include "harness/transport/http/http_connection.hpp"
#include "harness/transport/http/served_process.hpp"
#include "harness/transport/http/streamable_http_transport.hpp"
#include "harness/transport/http/ws_frame.hpp"

namespace mcpspec::transport::http {

class WebSocketTransport : public Transport {
 public:
  explicit WebSocketTransport(HttpTransportOptions options);
  ~WebSocketTransport() override;

  std::string name() const override { return "ws"; }
  void start() override;
  void send(const std::string& frame, Deadline deadline) override;
  // Bytes as given inside one text frame (the frame itself stays well-formed).
  void send_raw(const std::string& bytes, Deadline deadline) override { send(bytes, deadline); }
  Event receive(Deadline deadline) override { return events_.pop(deadline); }
  void close_input() override;
  void signal(int sig) override;
  std::optional<ExitStatus> exit_status() override;
  void stop() override;
  std::string describe() const override;

 private:
  void read_loop();
  void write_frame(WsOpcode op, std::string_view payload, Deadline deadline);
  void note(const std::string& text) { events_.push(Event{Event::Type::Stderr, "ws: " + text, {}}); }

  HttpTransportOptions options_;
  Url url_;
  EventQueue events_;
  std::unique_ptr<ServedProcess> served_;
  std::shared_ptr<HttpConnection> conn_;
  std::mutex write_mu_;
  std::thread reader_;
  std::atomic<bool> stopping_{false};
  bool stopped_ = false;
};

}  // namespace mcpspec::transport::http
