#include "harness/transport/http/httplib_support.hpp"

#include "harness/transport/transport.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <random>

namespace mcpspec::transport::http {

std::string new_session_id() {
  std::random_device rd;
  std::uniform_int_distribution<int> hex(0, 15);
  std::string id;
  for (int i = 0; i < 32; ++i) id += "0123456789abcdef"[hex(rd)];
  return id;
}

nlohmann::json request_headers(const httplib::Request& req) {
  nlohmann::json h = nlohmann::json::object();
  for (const auto& [k, v] : req.headers) {
    std::string name = k;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name == "remote_addr" || name == "remote_port" || name == "local_addr" || name == "local_port") continue;
    h[name] = v;
  }
  return h;
}

int listen_on_loopback(httplib::Server& server, std::thread& thread) {
  try {
    return listen_on(server, "127.0.0.1", 0, thread);
  } catch (const TransportError&) {
    throw TransportError("cannot listen on 127.0.0.1 for the client under test");
  }
}

int listen_on(httplib::Server& server, const std::string& host, int port, std::thread& thread) {
  // httplib writes a response's headers and body apart; without TCP_NODELAY the body waits for the
  // client's delayed ACK of the headers (about 40 ms per answer on Linux).
  server.set_tcp_nodelay(true);
  auto fd = std::make_shared<int>(-1);
  server.set_socket_options([fd](int sock) {
    httplib::default_socket_options(sock);
    *fd = sock;
  });
  const int wanted = port;
  if (port == 0) port = server.bind_to_any_port(host);
  else if (!server.bind_to_port(host, port)) port = -1;
  if (port <= 0)
    throw TransportError("cannot listen on " + host + ":" + (wanted ? std::to_string(wanted) : std::string("(any port)")));
  // Listening again on a listening socket only changes its backlog (Linux).
  if (*fd >= 0) ::listen(*fd, kListenBacklog);
  thread = std::thread([&server] { server.listen_after_bind(); });
  return port;
}

}  // namespace mcpspec::transport::http
