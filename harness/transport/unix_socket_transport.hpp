#pragma once
// Client-role carrier for stdio clients: the harness listens on a Unix socket, starts the client
// command with {server} replaced by `mcpspec bridge SOCKET`, and talks to whatever connects. The
// client's own stdout/stderr and the bridge's log become Stderr events for the wire log.
#include "harness/transport/client_carrier.hpp"
#include "harness/transport/child_process.hpp"
#include "harness/transport/line_framer.hpp"
#include "harness/transport/unix_socket_listener.hpp"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace mcpspec::transport {

struct UnixSocketClientOptions {
  // The client command, run by /bin/sh -c, with placeholders:
  //   {server}            the bridge command as shell words: 'mcpspec' 'bridge' '/tmp/.../server.sock'
  //   {server_argv_json}  the same as one shell word holding a JSON array of strings
  std::string command;
  std::string bridge_program;  // absolute path of the mcpspec binary
  SpawnOptions spawn;          // workdir and env (command is filled in by start())
  std::size_t max_message_bytes = 16 * 1024 * 1024;
  int stop_grace_ms = 500;
};

// Expands the placeholders; throws TransportError when the command uses none (the client would
// never reach the harness).
std::string expand_client_command(const std::string& command, const std::vector<std::string>& server_argv);

class UnixSocketClientTransport : public transport::ClientCarrier {
 public:
  explicit UnixSocketClientTransport(UnixSocketClientOptions options);
  ~UnixSocketClientTransport() override;

  std::string name() const override { return "stdio"; }
  void start() override;
  void send(const std::string& frame, Deadline deadline) override;
  void send_raw(const std::string& bytes, Deadline deadline) override;
  Event receive(Deadline deadline) override;
  void close_input() override;
  void signal(int sig) override;
  std::optional<ExitStatus> exit_status() override;
  void stop() override;
  std::string describe() const override;

  void crash_server() override;
  bool connected() const override { return conn_ >= 0; }
  int connections() const override { return connections_; }

 private:
  void pump(Deadline deadline);
  void accept_pending();
  void read_connection();
  void read_child_stream(int fd, LineFramer& framer, const char* prefix, bool is_stdout);
  void read_bridge_log();
  void drop_connection(const std::string& why);
  void write_all(const std::string& bytes, Deadline deadline);

  UnixSocketClientOptions options_;
  std::unique_ptr<UnixSocketListener> listener_;
  ChildProcess child_;
  std::string expanded_;
  int conn_ = -1;
  pid_t peer_ = -1;
  int connections_ = 0;
  bool write_closed_ = false;
  LineFramer conn_framer_, out_framer_, err_framer_;
  std::size_t log_offset_ = 0;
  std::string log_partial_;
  std::deque<Event> events_;
  bool exit_reported_ = false;
};

}  // namespace mcpspec::transport
