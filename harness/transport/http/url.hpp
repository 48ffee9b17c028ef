#pragma once
// The parts of an http:// or ws:// URL the transports need. No TLS: the harness talks to
// loopback or plain-HTTP test deployments only.
#include <string>

namespace mcpspec::transport::http {

struct Url {
  std::string scheme;  // "http" or "ws"
  std::string host;    // without brackets for IPv6 literals
  int port = 80;
  std::string target = "/";  // path plus query, always starting with '/'
  std::string host_header() const;  // "host:port" as sent in the Host header
  std::string origin() const;       // "http://host:port"
  std::string text() const;
};

// Throws std::invalid_argument naming what is wrong ("https is not supported", "bad port").
Url parse_url(const std::string& text);
// Resolves `ref` (absolute URL, absolute path or relative path) against `base`, as the legacy
// SSE transport's endpoint event requires.
Url resolve_url(const Url& base, const std::string& ref);

}  // namespace mcpspec::transport::http
