// The original servers while `mcp` serves: each is started on first use (lazily), kept alive
// between calls, started again when it has exited or its connection broke (with a backoff when
// restarting fails), and stopped when tamamo exits.
#pragma once

#include "config.hpp"

#include "mcpref/backoff.hpp"
#include "mcpref/client_channel.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tamamo {

class UpstreamPool {
 public:
  UpstreamPool(const std::vector<UpstreamConfig>& servers, std::chrono::milliseconds connect_timeout);
  ~UpstreamPool();  // stop_all()
  UpstreamPool(const UpstreamPool&) = delete;
  UpstreamPool& operator=(const UpstreamPool&) = delete;

  bool knows(const std::string& server) const { return upstreams_.count(server) > 0; }
  // tools/call on `server`. Returns the result; throws the ClientChannel exceptions (or
  // ChannelClosed when the server cannot be started) with messages naming the server.
  mcpref::Json call_tool(const std::string& server, const std::string& tool, const mcpref::Json& arguments,
                         std::chrono::milliseconds timeout);
  // Times `server` was started (0: never used). For tests and the log.
  int starts(const std::string& server) const;
  void stop_all();

 private:
  struct Upstream {
    UpstreamConfig config;
    mutable std::mutex mutex;  // guards the fields below
    std::shared_ptr<mcpref::ClientChannel> channel;
    int starts = 0;
    mcpref::Backoff backoff;
    std::chrono::steady_clock::time_point retry_after{};
    std::string last_failure;
  };

  // The open channel of `up`, starting (or restarting) the server when needed.
  std::shared_ptr<mcpref::ClientChannel> ensure_running(Upstream& up);

  std::map<std::string, std::unique_ptr<Upstream>> upstreams_;
  std::chrono::milliseconds connect_timeout_;
};

}  // namespace tamamo
