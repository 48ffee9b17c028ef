#pragma once
// WWW-Authenticate challenges (RFC 9110 §11.6.1): one header field may carry several challenges,
// each an auth-scheme followed by either a token68 or comma-separated auth-params whose values are
// tokens or quoted-strings with backslash escapes. The MCP authorization rows read the Bearer
// challenge's resource_metadata, scope and error parameters (RFC 6750 §3, RFC 9728 §5.1).
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcpspec::auth {

struct Challenge {
  std::string scheme;   // as sent; compare with iequals (schemes are case-insensitive)
  std::string token68;  // the token68 form, when the challenge used it
  std::vector<std::pair<std::string, std::string>> params;  // names as sent, values unquoted

  // The value of the first parameter of that name (case-insensitive), if any.
  std::optional<std::string> param(const std::string& name) const;
};

struct ParsedChallenges {
  std::vector<Challenge> challenges;
  std::string error;  // empty when the whole text parsed; else what was wrong and at which byte
};

// Parses one or more WWW-Authenticate field values (several fields joined with ", " are one list).
// Never throws: text that breaks the grammar stops the parse, keeps the challenges read so far
// and says where it stopped.
ParsedChallenges parse_www_authenticate(const std::string& text);

// The first challenge with this scheme (case-insensitive), or nullptr.
const Challenge* find_challenge(const ParsedChallenges& parsed, const std::string& scheme);

bool iequals_ascii(const std::string& a, const std::string& b);

}  // namespace mcpspec::auth
