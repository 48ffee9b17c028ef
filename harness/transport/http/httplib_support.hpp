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

// Makes a server for a client under test: `threads` workers (each open stream holds one), bodies
// bounded by `max_body` (413 beyond, said in the wire log through `note`), read and keep-alive
// timeouts, and `on_error` for every other error response (unknown paths). Not yet listening.
std::unique_ptr<httplib::Server> make_client_side_server(
    std::size_t threads, std::size_t max_body, const std::function<void(const std::string&)>& note,
    std::function<void(const httplib::Request&, httplib::Response&)> on_error);
// Binds 127.0.0.1 on a free port and serves on a new thread; returns the port. Throws
// TransportError when no port can be had.
int listen_on_loopback(httplib::Server& server, std::thread& thread);

}  // namespace mcpspec::transport::http
