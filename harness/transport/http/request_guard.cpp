#include "harness/transport/http/request_guard.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace mcpspec::transport::http {

namespace {

struct Authority {
  std::string host;  // lower-case; an IPv6 address keeps its brackets
  std::optional<int> port;
};

// "name", "name:port", "[v6]" or "[v6]:port"; nullopt when it is none of these.
std::optional<Authority> parse_authority(const std::string& text) {
  Authority a;
  std::string rest;
  if (!text.empty() && text[0] == '[') {
    auto close = text.find(']');
    if (close == std::string::npos) return std::nullopt;
    a.host = text.substr(0, close + 1);
    rest = text.substr(close + 1);
  } else {
    auto colon = text.find(':');
    a.host = text.substr(0, colon);
    rest = colon == std::string::npos ? "" : text.substr(colon);
  }
  if (a.host.empty() || a.host == "[]") return std::nullopt;
  std::transform(a.host.begin(), a.host.end(), a.host.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!rest.empty()) {
    if (rest[0] != ':' || rest.size() < 2 || rest.size() > 6) return std::nullopt;
    if (!std::all_of(rest.begin() + 1, rest.end(), [](unsigned char c) { return std::isdigit(c); })) return std::nullopt;
    a.port = std::stoi(rest.substr(1));
  }
  return a;
}

bool is_loopback_name(const std::string& host) {
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

bool is_wildcard(const std::string& host) { return host.empty() || host == "0.0.0.0" || host == "::" || host == "[::]"; }

// Whether `host` (parsed, lower-case) names the end listening at `at`. Any name may reach an end
// bound to a wildcard address; only a loopback name counts for an Origin there (`for_origin`).
bool names_listen_address(const std::string& host, const ListenAddress& at, bool for_origin) {
  if (is_wildcard(at.host)) return !for_origin || is_loopback_name(host);
  std::string bound = at.host;
  std::transform(bound.begin(), bound.end(), bound.begin(), [](unsigned char c) { return std::tolower(c); });
  if (host == bound || host == "[" + bound + "]") return true;
  return is_loopback_name(bound) && is_loopback_name(host);
}

}  // namespace

std::string forbidden_reason(const std::string& host_header, const std::string& origin_header, const ListenAddress& at) {
  if (!host_header.empty()) {
    auto a = parse_authority(host_header);
    if (!a || !names_listen_address(a->host, at, false) || a->port.value_or(80) != at.port)
      return "Host " + host_header + " is not the address this end listens on";
  }
  if (!origin_header.empty()) {
    std::optional<Authority> a;
    for (const char* scheme : {"http://", "https://"}) {
      if (origin_header.rfind(scheme, 0) == 0) {
        std::string rest = origin_header.substr(std::string(scheme).size());
        a = parse_authority(rest.substr(0, rest.find('/')));
      }
    }
    if (!a || !names_listen_address(a->host, at, true))
      return "Origin " + origin_header + " is not a page of this machine";
  }
  return "";
}

}  // namespace mcpspec::transport::http
