#pragma once
// URLs as the authorization rows compare and derive them: the parts of a URI (RFC 3986 Appendix B),
// the well-known locations of protected resource metadata (RFC 9728 §3.1) and of authorization
// server metadata (RFC 8414 §3.1, OpenID Connect Discovery §4). (Comparing a PRM `resource` with the
// endpoint is harness/auth/canonical_uri; issuer comparison is byte-exact, AUTH-CHECKLIST §7.8.)
#include <string>
#include <vector>

namespace mcpspec::authcheck {

struct UriParts {
  std::string scheme, authority, path, query, fragment;
  bool has_query = false, has_fragment = false;
};

// Never throws; a text without "scheme:" gets an empty scheme.
UriParts split_uri(const std::string& text);
// "scheme://authority", scheme and host lower-cased, default port (80/443) dropped.
std::string origin_of(const std::string& url);
// An absolute http(s) URL with a host: https anywhere, http only on a loopback host.
bool is_secure_or_loopback(const std::string& url);
bool is_loopback(const std::string& url);

// <origin>/.well-known/oauth-protected-resource<path>, and the root form; the first is left out
// when the endpoint's path is "/" or empty (then both are the same URL).
std::vector<std::string> prm_well_known_urls(const std::string& endpoint);

struct MetadataUrl {
  std::string url;
  bool openid = false;  // an OpenID Connect discovery document, not RFC 8414
};
// The metadata URLs of an issuer, in the order clients try them (2025-11-25 onwards): with a path,
// OAuth path-inserted, OpenID path-inserted, OpenID path-appended; without, OAuth then OpenID.
// `oauth_only`: RFC 8414 only (2025-06-18).
std::vector<MetadataUrl> as_metadata_urls(const std::string& issuer, bool oauth_only);

// RFC 3986 percent-encoding of everything but unreserved characters (a query parameter value).
std::string percent_encode(const std::string& s);

}  // namespace mcpspec::authcheck
