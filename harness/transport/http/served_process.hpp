#pragma once
// A server the harness starts itself for an HTTP or WebSocket run (--server CMD --port-env NAME):
// it gets a free loopback port in that environment variable, the harness waits (bounded) until the
// port accepts connections, and its stdout/stderr lines and its exit become transport events.
#include "harness/transport/child_process.hpp"
#include "harness/transport/http/event_queue.hpp"

#include <atomic>
#include <mutex>
#include <thread>

namespace mcpspec::transport::http {

// A port that was free on 127.0.0.1 a moment ago (the kernel picks it).
int free_loopback_port();

class ServedProcess {
 public:
  ServedProcess(SpawnOptions spawn, std::string port_env, EventQueue& events);
  ~ServedProcess();
  // Spawns with PORT set and waits until 127.0.0.1:port accepts a connection. Throws
  // TransportError when the process ends first or the start-up deadline passes.
  void start(Deadline listening_deadline);
  int port() const { return port_; }
  void signal(int sig);
  std::optional<ExitStatus> exit_status();
  void stop(int grace_ms);
  std::string describe() const;

 private:
  void watch();  // background: forwards output lines, reports the exit

  SpawnOptions spawn_;
  std::string port_env_;
  EventQueue& events_;
  int port_ = 0;
  std::mutex mu_;  // guards child_ between the watcher and the caller
  ChildProcess child_;
  std::thread watcher_;
  std::atomic<bool> stopping_{false};
  bool exit_reported_ = false;
};

}  // namespace mcpspec::transport::http
