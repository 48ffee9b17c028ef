#include "mcpref/serve.hpp"

#include "mcpref/http_server.hpp"
#include "mcpref/stdio_server.hpp"
#include "mcpref/stop_signals.hpp"
#include "mcpref/websocket_server.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <thread>

namespace mcpref {

std::optional<Transport> parse_transport(const std::string& name) {
  if (name == "stdio") return Transport::Stdio;
  if (name == "http" || name == "streamable-http") return Transport::Http;
  if (name == "websocket" || name == "ws") return Transport::WebSocket;
  return std::nullopt;
}

namespace {

// Runs `server` until it ends or a stop signal arrives, which a waiting thread turns into stop().
template <typename Server>
int run_until_signal(Server& server) {
  StopSignals signals;
  std::thread waiter([&server, &signals] {
    if (signals.wait() != 0) server.stop();
  });
  int status = 0;
  try {
    server.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    status = 1;
  }
  signals.cancel();
  waiter.join();
  return status;
}

}  // namespace

int serve(Dispatcher& dispatcher, const ServeOptions& options) {
  switch (options.transport) {
    case Transport::Stdio: return serve_stdio(dispatcher);
    case Transport::Http: {
      HttpServer server(dispatcher, options.network);
      return run_until_signal(server);
    }
    case Transport::WebSocket: {
      WebSocketServer server(dispatcher, options.network);
      return run_until_signal(server);
    }
  }
  return 1;
}

}  // namespace mcpref
