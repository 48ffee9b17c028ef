#pragma once
// One HTTP request of the authorization checks to any absolute URL: the MCP endpoint, a protected
// resource metadata document, an authorization server's metadata (which may live on another host
// and behind https). Built on cpp-httplib's client (TLS through OpenSSL); redirects are not
// followed, every exchange has a deadline, bodies are capped, and an SSE answer is read only until
// its first JSON-RPC response.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcpspec::authcheck {

struct ProbeRequest {
  std::string method = "GET";
  std::string url;  // absolute http:// or https:// URL
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string content_type;  // with a body
};

struct ProbeResponse {
  bool reached = false;   // false: no HTTP answer at all (refused, timeout, TLS failure); see error
  std::string error;
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, in order
  std::string body;       // at most kMaxBody bytes
  nlohmann::json json;    // the body parsed as JSON (application/json), or null
  nlohmann::json messages = nlohmann::json::array();  // JSON-RPC messages from a JSON or SSE body

  // Every value of that header, joined with ", " (how several fields of one name combine).
  std::string header(const std::string& lower_name) const;
  bool has_header(const std::string& lower_name) const;
  // A JSON-RPC message among `messages` that carries "result".
  bool has_result() const;
  bool is_json() const;  // Content-Type application/json (parameters ignored)
  // "GET URL -> 401" for evidence.
  std::string line(const ProbeRequest& r) const;
};

constexpr std::size_t kMaxBody = 1024 * 1024;

// Never throws for network trouble (reported in `error`); throws std::invalid_argument when
// `r.url` is not an absolute http(s) URL.
ProbeResponse send_probe(const ProbeRequest& r, int timeout_ms);

}  // namespace mcpspec::authcheck
