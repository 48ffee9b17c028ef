#pragma once
// The WWW-Authenticate header (RFC 9110 §11.6.1): parsing every challenge in a field value (the
// resource-server checks read a server's 401/403), and writing one (the protected endpoint mcpspec
// serves to clients under test). The grammar: challenges separated by commas; each a scheme
// (case-insensitive) followed by a token68 or by comma-separated auth-params, whose values are
// tokens or quoted-strings with backslash escapes.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcpspec::auth {

struct Challenge {
  std::string scheme;                         // as written
  std::optional<std::string> token68;
  std::map<std::string, std::string> params;  // names lower-cased, values unquoted
  // The value of a parameter (name case-insensitive), or null.
  std::optional<std::string> param(const std::string& name) const;
};

struct ChallengeParse {
  std::vector<Challenge> challenges;
  std::string error;  // empty when the whole value parsed; else what was wrong and at which offset
};
ChallengeParse parse_www_authenticate(const std::string& value);
// The first challenge whose scheme is `scheme` (case-insensitive), or null.
const Challenge* find_challenge(const std::vector<Challenge>& all, const std::string& scheme);

// `Scheme name="value", ...` in the given order, every value a quoted-string (escaping '"' and '\').
std::string write_challenge(const std::string& scheme, const std::vector<std::pair<std::string, std::string>>& params);

}  // namespace mcpspec::auth
