#pragma once
// Small pieces the cpp-httplib based server ends (Streamable HTTP, legacy HTTP+SSE) share.
#include "harness/transport/http/request_guard.hpp"

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

// The listen backlog of every served end. (The Debian library listens with a backlog of 5: a
// client opening a dozen connections at once saw SYNs dropped and retransmitted a second later.)
constexpr int kListenBacklog = 128;

// Told each request an end refuses before routing it: the status (403, 431 or 503) and why.
using RefusalNote = std::function<void(const httplib::Request&, int status, const std::string& why)>;

// Serves a peer the harness does not trust: binds `host:port` (0: any free port), serves on
// `thread` and keeps RequestLimits there. At most `workers` connections are served at once and
// at most RequestLimits::kMaxConnections are open (the rest wait for a worker); one more is
// answered 503 and closed. A silent connection is closed after kIdleSeconds; a head past
// kMaxHeadBytes gets 431; a foreign Host or Origin (forbidden_reason) gets 403. The answers carry a
// JSON-RPC error with id null. Sets the server's task queue, read and keep-alive time-outs and
// pre-routing handler (the caller sets none of these). Returns the port; throws TransportError
// naming the address when it cannot be bound.
int listen_guarded(httplib::Server& server, const std::string& host, int port, std::thread& thread, int workers,
                   RefusalNote on_refused);

// listen_guarded on 127.0.0.1, any free port: the end a client under test is given. Throws
// TransportError saying so when no port can be had.
int listen_for_client(httplib::Server& server, std::thread& thread, int workers, RefusalNote on_refused);

}  // namespace mcpspec::transport::http
