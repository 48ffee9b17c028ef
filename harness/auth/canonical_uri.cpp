#include "harness/auth/canonical_uri.hpp"

#include <algorithm>
#include <regex>

namespace mcpspec::auth {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string default_port(const std::string& scheme) {
  if (scheme == "http" || scheme == "ws") return "80";
  if (scheme == "https" || scheme == "wss") return "443";
  return "";
}

}  // namespace

std::optional<UriParts> split_uri(const std::string& text) {
  // RFC 3986 Appendix B; the input is bounded by the HTTP request size.
  static const std::regex re(R"(^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$)");
  std::smatch m;
  if (text.size() > 8192 || !std::regex_match(text, m, re)) return std::nullopt;
  if (!m[2].matched || !m[4].matched || m[4].str().empty()) return std::nullopt;
  UriParts p;
  p.scheme = m[2].str();
  std::string authority = m[4].str();
  auto at = authority.rfind('@');
  if (at != std::string::npos) authority = authority.substr(at + 1);
  auto colon = authority.rfind(':');
  auto bracket = authority.rfind(']');
  if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
    p.host = authority.substr(0, colon);
    p.port = authority.substr(colon + 1);
  } else {
    p.host = authority;
  }
  p.path = m[5].str();
  p.query = m[7].str();
  p.has_fragment = m[8].matched;
  return p;
}

UriMatch compare_resource(const std::string& got, const std::string& canonical) {
  if (got == canonical) return UriMatch::Identical;
  auto g = split_uri(got);
  auto c = split_uri(canonical);
  if (!g || !c) return UriMatch::NotAbsolute;
  if (g->has_fragment) return UriMatch::HasFragment;
  auto origin = [](const UriParts& p) {
    std::string scheme = lower(p.scheme);
    std::string port = p.port.empty() ? default_port(scheme) : p.port;
    return scheme + "://" + lower(p.host) + ":" + port;
  };
  if (origin(*g) != origin(*c)) return UriMatch::OtherOrigin;
  if (g->path == c->path && g->query == c->query) return UriMatch::Normalized;
  auto strip = [](std::string p) {
    if (!p.empty() && p.back() == '/') p.pop_back();
    return p;
  };
  if (strip(g->path) == strip(c->path) && g->query == c->query) return UriMatch::TrailingSlash;
  return UriMatch::OtherPath;
}

const char* describe(UriMatch m) {
  switch (m) {
    case UriMatch::Identical: return "identical";
    case UriMatch::Normalized: return "equal only after case/port normalization";
    case UriMatch::TrailingSlash: return "differs by a trailing slash";
    case UriMatch::OtherPath: return "same origin, another path";
    case UriMatch::OtherOrigin: return "another origin";
    case UriMatch::NotAbsolute: return "not an absolute URI";
    case UriMatch::HasFragment: return "carries a fragment";
  }
  return "?";
}

}  // namespace mcpspec::auth
