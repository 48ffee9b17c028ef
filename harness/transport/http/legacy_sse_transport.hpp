#pragma once
// The HTTP+SSE transport of protocol 2024-11-05, harness side = the client: one long GET on the SSE
// endpoint whose first event (`endpoint`) names the URL for POSTs; every server message arrives as
// a `message` event on that GET stream; each client message is a POST to the endpoint URL.
#include "harness/transport/http/event_queue.hpp"
#include "harness/transport/http/http_connection.hpp"
#include "harness/transport/http/served_process.hpp"
#include "harness/transport/http/streamable_http_transport.hpp"

#include <condition_variable>

namespace mcpspec::transport::http {

class LegacySseTransport : public Transport {
 public:
  explicit LegacySseTransport(HttpTransportOptions options);
  ~LegacySseTransport() override;

  std::string name() const override { return "sse"; }
  void start() override;
  void send(const std::string& frame, Deadline deadline) override;
  void send_raw(const std::string& bytes, Deadline deadline) override;
  Event receive(Deadline deadline) override { return events_.pop(deadline); }
  void close_input() override;
  void signal(int sig) override;
  std::optional<ExitStatus> exit_status() override;
  void stop() override;
  std::string describe() const override;

  Url sse_url() const { return url_; }
  Url post_url() const;

 private:
  void read_stream();
  void note(const std::string& text) { events_.push(Event{Event::Type::Stderr, "http: " + text, {}}); }

  HttpTransportOptions options_;
  Url url_;
  EventQueue events_;
  std::unique_ptr<ServedProcess> served_;
  std::shared_ptr<HttpConnection> stream_;
  std::thread reader_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::optional<Url> post_url_;
  std::string endpoint_problem_;
  bool stream_over_ = false;
  std::atomic<bool> stopping_{false};
  std::uint64_t sends_ = 0;  // send_raw() calls so far (Event::send)
  bool stopped_ = false;
};

}  // namespace mcpspec::transport::http
