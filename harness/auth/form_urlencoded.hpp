#pragma once
// application/x-www-form-urlencoded bodies and query strings (the /token, /authorize, /register and
// introspection parameters), over cpp-httplib's own query codec. OAuth forbids repeating a
// parameter (RFC 6749 §3.1), so repeats are kept and reported rather than silently collapsed.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcpspec::auth {

struct Form {
  std::multimap<std::string, std::string> all;
  // The value when the name occurs exactly once; null when absent or repeated.
  std::optional<std::string> get(const std::string& name) const;
  bool has(const std::string& name) const { return all.count(name) > 0; }
  // Names that occur more than once.
  std::vector<std::string> repeated() const;
};

Form parse_form(const std::string& text);
std::string write_form(const std::vector<std::pair<std::string, std::string>>& params);
std::string percent_encode(const std::string& value);

}  // namespace mcpspec::auth
