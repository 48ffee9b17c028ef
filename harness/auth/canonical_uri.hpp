#pragma once
// Comparing a client's `resource` parameter with the MCP server's canonical URI (RFC 8707 §2, MCP
// "Canonical Server URI"): lenient where RFC 3986 §6.2.2 normalization makes two URIs equal (case of
// scheme and host, an explicit default port), and saying which rule was needed, so a check can
// pass the identical form, warn on a normalized match and fail on anything else. The issuer and
// `iss` comparisons are byte for byte and must NOT use this (AUTH-78).
#include <optional>
#include <string>

namespace mcpspec::auth {

struct UriParts {
  std::string scheme, host, port, path, query;
  bool has_fragment = false;
};
// RFC 3986 Appendix B split of an absolute URI (scheme and authority present); null otherwise.
std::optional<UriParts> split_uri(const std::string& text);

enum class UriMatch {
  Identical,       // byte for byte
  Normalized,      // equal after lower-casing scheme/host and dropping a default port
  TrailingSlash,   // equal but for one trailing '/' on the path
  OtherPath,       // same origin, another path
  OtherOrigin,     // another scheme, host or port
  NotAbsolute,     // no scheme or authority
  HasFragment,     // a resource indicator must not carry one (RFC 8707 §2)
};
UriMatch compare_resource(const std::string& got, const std::string& canonical);
const char* describe(UriMatch m);

}  // namespace mcpspec::auth
