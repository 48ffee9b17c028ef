#include "mcpref/network_options.hpp"

namespace mcpref {

namespace {

// "host:port", "[::1]:port" or "host" -> host.
std::string host_of(const std::string& authority) {
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    return close == std::string::npos ? authority : authority.substr(0, close + 1);
  }
  auto colon = authority.find(':');
  return colon == std::string::npos ? authority : authority.substr(0, colon);
}

}  // namespace

bool is_loopback_authority(const std::string& authority) {
  std::string host = host_of(authority);
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

bool is_allowed_origin(const std::string& origin) {
  if (origin.empty()) return true;  // not a browser: nothing to protect against
  for (const char* scheme : {"http://", "https://"}) {
    std::string prefix = scheme;
    if (origin.rfind(prefix, 0) == 0) {
      std::string rest = origin.substr(prefix.size());
      auto slash = rest.find('/');
      return is_loopback_authority(slash == std::string::npos ? rest : rest.substr(0, slash));
    }
  }
  return false;  // "null" or another scheme: a page we cannot trust
}

bool is_allowed_host(const std::string& host_header, const std::string& bound_host) {
  if (host_header.empty() || is_loopback_authority(host_header)) return true;
  std::string host = host_of(host_header);
  return host == bound_host || host == "[" + bound_host + "]";
}

}  // namespace mcpref
