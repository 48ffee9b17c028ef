#pragma once
// mcpspec-auth-testserver's command line: its token table, its faults, its port.
#include <map>
#include <set>
#include <string>
#include <vector>

namespace authtest {

struct TokenInfo {
  std::set<std::string> scopes;
  std::string audience;  // empty: this server's own resource URL
  bool expired = false;
};

struct Options {
  int port = 0;                              // from --port or $PORT
  std::map<std::string, TokenInfo> tokens;   // --token VALUE=SCOPE,SCOPE[@AUDIENCE], --expired-token VALUE
  std::set<std::string> faults;              // --fault NAME (repeatable)
  // $MCP_CONFORMANCE_AUTH_SERVER_URL: an authorization server whose tokens are checked by RFC 7662
  // introspection (tokens not in the table); PRM then names it instead of the built-in AS.
  std::string trusted_issuer;
  bool fault(const std::string& name) const { return faults.count(name) > 0; }
};

// Exits with status 2 and a message naming the bad argument.
Options parse_options(int argc, char** argv);

// The --fault names this server knows (faults.json lists the same, with what catches each).
const std::vector<std::string>& known_faults();

}  // namespace authtest
