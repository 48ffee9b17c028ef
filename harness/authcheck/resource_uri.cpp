#include "harness/authcheck/resource_uri.hpp"

#include <cctype>
#include <regex>

namespace mcpspec::authcheck {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// host (without userinfo and port) of an authority, lower-cased; brackets of IPv6 literals kept.
std::string host_of(const std::string& authority) {
  std::string a = authority.substr(authority.find('@') == std::string::npos ? 0 : authority.find('@') + 1);
  if (!a.empty() && a[0] == '[') return lower(a.substr(0, a.find(']') + 1));
  return lower(a.substr(0, a.find(':')));
}

std::string normalized_authority(const std::string& scheme, const std::string& authority) {
  std::string a = lower(authority);
  const std::string default_port = scheme == "https" ? ":443" : scheme == "http" ? ":80" : "";
  if (!default_port.empty() && a.size() > default_port.size() &&
      a.compare(a.size() - default_port.size(), default_port.size(), default_port) == 0)
    a.resize(a.size() - default_port.size());
  return a;
}

std::string trim_trailing_slash(std::string p) {
  while (!p.empty() && p.back() == '/') p.pop_back();
  return p;
}

}  // namespace

UriParts split_uri(const std::string& text) {
  // The regular expression of RFC 3986 Appendix B, which splits any URI reference.
  static const std::regex re(R"(^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?)");
  std::smatch m;
  UriParts u;
  if (!std::regex_match(text, m, re)) return u;
  u.scheme = lower(m[2]);
  u.authority = m[4];
  u.path = m[5];
  u.has_query = m[6].matched;
  u.query = m[7];
  u.has_fragment = m[8].matched;
  u.fragment = m[9];
  return u;
}

std::string origin_of(const std::string& url) {
  UriParts u = split_uri(url);
  return u.scheme + "://" + normalized_authority(u.scheme, u.authority);
}

bool is_loopback(const std::string& url) {
  const std::string h = host_of(split_uri(url).authority);
  return h == "localhost" || h == "[::1]" || h.rfind("127.", 0) == 0;
}

bool is_secure_or_loopback(const std::string& url) {
  UriParts u = split_uri(url);
  if (u.authority.empty() || host_of(u.authority).empty()) return false;
  return u.scheme == "https" || (u.scheme == "http" && is_loopback(url));
}

std::vector<std::string> prm_well_known_urls(const std::string& endpoint) {
  UriParts u = split_uri(endpoint);
  const std::string base = u.scheme + "://" + u.authority + "/.well-known/oauth-protected-resource";
  std::vector<std::string> out;
  if (!u.path.empty() && u.path != "/") out.push_back(base + u.path);
  out.push_back(base);
  return out;
}

std::vector<MetadataUrl> as_metadata_urls(const std::string& issuer, bool oauth_only) {
  UriParts u = split_uri(issuer);
  const std::string root = u.scheme + "://" + u.authority;
  const std::string path = trim_trailing_slash(u.path);
  std::vector<MetadataUrl> out;
  if (!path.empty()) {
    out.push_back({root + "/.well-known/oauth-authorization-server" + path, false});
    if (!oauth_only) {
      out.push_back({root + "/.well-known/openid-configuration" + path, true});
      out.push_back({root + path + "/.well-known/openid-configuration", true});
    }
  } else {
    out.push_back({root + "/.well-known/oauth-authorization-server", false});
    if (!oauth_only) out.push_back({root + "/.well-known/openid-configuration", true});
  }
  return out;
}

std::string percent_encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace mcpspec::authcheck
