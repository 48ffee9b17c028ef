#include "mcpref/serve.hpp"

#include "mcpref/http_server.hpp"
#include "mcpref/stdio_server.hpp"
#include "mcpref/websocket_server.hpp"

#include <fmt/format.h>

#include <csignal>
#include <cstdio>
#include <pthread.h>
#include <thread>

namespace mcpref {

std::optional<Transport> parse_transport(const std::string& name) {
  if (name == "stdio") return Transport::Stdio;
  if (name == "http" || name == "streamable-http") return Transport::Http;
  if (name == "websocket" || name == "ws") return Transport::WebSocket;
  return std::nullopt;
}

namespace {

// Runs `server` with the termination signals blocked in every thread but one waiter, which
// stops the server when a signal arrives. SIGUSR1 is our own wake-up once the server ended.
template <typename Server>
int run_until_signal(Server& server) {
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) sigaddset(&signals, s);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // inherited by every thread started below
  std::signal(SIGPIPE, SIG_IGN);
  std::thread waiter([&server, signals] {
    int received = 0;
    sigwait(&signals, &received);
    server.stop();
  });
  int status = 0;
  try {
    server.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    status = 1;
  }
  pthread_kill(waiter.native_handle(), SIGUSR1);
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
