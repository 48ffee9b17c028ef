#pragma once
// Tokens of the trusted authorization server ($MCP_CONFORMANCE_AUTH_SERVER_URL), checked the way
// the SDKs' reference servers do it: RFC 7662 introspection at the endpoint the issuer's RFC 8414
// metadata names. Written against cpp-httplib alone, sharing nothing with the harness.
#include "options.hpp"

#include <optional>
#include <string>

namespace authtest {

// The token as the resource layer judges it (scopes, audience), or nothing when the AS calls it
// inactive, cannot be asked, or names another issuer (unless the fault accept-foreign-issuer).
// An absent aud becomes the audience "(none)" (unless the fault accept-missing-audience); an aud
// list counts as `resource` when it holds it.
std::optional<TokenInfo> introspect(const std::string& token, const Options& o, const std::string& resource);

}  // namespace authtest
