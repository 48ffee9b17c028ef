#pragma once
// The OAuth resource-server layer in front of the test server's MCP endpoint: reads the bearer
// token, checks it against the static token table (expiry, audience, scope of the operation) and
// writes the 400/401/403 answers with their WWW-Authenticate challenge. Faults bend each rule.
#include "options.hpp"

#include <httplib.h>

#include <string>

namespace authtest {

struct Urls {
  std::string origin;    // http://127.0.0.1:PORT (also the issuer of the built-in AS)
  std::string resource;  // origin + "/mcp"
  std::string prm;       // origin + "/.well-known/oauth-protected-resource/mcp"
};

// The scope an MCP request needs: tools/call of "secret" needs mcp:admin, everything else mcp:read.
std::string needed_scope(const std::string& method, const std::string& tool);

// True when the request may proceed; otherwise `res` holds the refusal.
bool authorize(const httplib::Request& req, httplib::Response& res, const std::string& scope, const Options& o,
               const Urls& urls);

}  // namespace authtest
