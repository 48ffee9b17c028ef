// Fake stdio MCP servers for the client-side tests: small `sh` scripts that answer by pattern,
// so a test states exactly what the server does (answer, stay silent, crash, misbehave).
#pragma once

#include <string>

namespace fake_server {

// Shell snippet setting $id to the numeric id of the JSON-RPC line in $line (empty if none).
inline const std::string kExtractId = R"(id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p'); )";

// Reads lines forever; answers each request with {"echo": true}.
inline std::string echo() {
  return "while IFS= read -r line; do " + kExtractId +
         R"([ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"result":{"echo":true}}\n' "$id"; done)";
}

// Answers initialize (with `version`), then runs `after` (shell) with stdin still connected.
inline std::string initialize_then(const std::string& after, const std::string& version = "2024-11-05") {
  return "IFS= read -r line; " + kExtractId +
         R"(printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":")" + version +
         R"(","capabilities":{},"serverInfo":{"name":"fake","version":"0"}}}\n' "$id"; )" + after;
}

}  // namespace fake_server
