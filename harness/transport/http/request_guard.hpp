#pragma once
// The checks every HTTP end the harness serves (the Streamable HTTP, legacy HTTP+SSE and
// WebSocket servers a client under test talks to, and `mcpspec proxy --listen`) makes before it
// acts on a request, so that a web page in a browser on this machine cannot drive them (MCP's
// DNS-rebinding rule) and a hostile local client cannot grow them without bound. The ends call
// these; none keeps a copy of its own.
#include <cstddef>
#include <string>

namespace mcpspec::transport::http {

// The bounds every served end keeps (docs/security.md lists them with their tests).
struct RequestLimits {
  // A request head (request line and header lines together). cpp-httplib refuses a single header
  // line past 8 KiB while reading; the whole head is checked once read.
  static constexpr std::size_t kMaxHeadBytes = 64 * 1024;
  // Open connections per end; one more is answered 503 and closed.
  static constexpr int kMaxConnections = 64;
  // A connection that sends nothing for this long, inside a request or between kept-alive
  // requests (or during a WebSocket opening handshake), is closed.
  static constexpr int kIdleSeconds = 5;
};

// Where an end listens: the address it was bound to and its port.
struct ListenAddress {
  std::string host = "127.0.0.1";
  int port = 0;
};

// Why a request with these Host and Origin headers must be refused with 403 by the end listening
// at `at`, or "" when it may be served:
// - Host must name the listen address (or, when that is a loopback address, any loopback name:
//   localhost, 127.0.0.1, [::1]) with the bound port; an absent Host (HTTP/1.0, no browser) is
//   allowed. An end bound to a wildcard address (0.0.0.0, ::) cannot tell its own names and
//   checks the port only.
// - Origin, when present, must be an http(s) origin on one of those names (any port): a page of
//   another site, "null" or another scheme is refused.
std::string forbidden_reason(const std::string& host_header, const std::string& origin_header, const ListenAddress& at);

}  // namespace mcpspec::transport::http
