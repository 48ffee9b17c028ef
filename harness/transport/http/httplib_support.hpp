#pragma once
// Small pieces the cpp-httplib based server ends (Streamable HTTP, legacy HTTP+SSE) share.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace httplib {
class Server;
struct Request;
struct Response;
}

namespace mcpspec::transport::http {

// 32 random hex digits: visible ASCII, unguessable enough for a test session.
std::string new_session_id();
// The request's headers as the client sent them, names lower-cased (httplib's own additions such as
// REMOTE_ADDR left out).
nlohmann::json request_headers(const httplib::Request& req);

// Binds 127.0.0.1 on a free port with a listen backlog of kListenBacklog and serves on `thread`;
// returns the port. Throws TransportError when no port can be had. (The Debian library listens
// with a backlog of 5: a client opening a dozen connections at once saw SYNs dropped and
// retransmitted a second later.)
constexpr int kListenBacklog = 128;
int listen_on_loopback(httplib::Server& server, std::thread& thread);
// The same on a given address and port (0: any free port); returns the port. Throws TransportError
// naming the address when it cannot be bound.
int listen_on(httplib::Server& server, const std::string& host, int port, std::thread& thread);

}  // namespace mcpspec::transport::http
