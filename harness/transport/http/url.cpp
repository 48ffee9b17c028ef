#include "harness/transport/http/url.hpp"

#include <stdexcept>

namespace mcpspec::transport::http {

std::string Url::host_header() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return h + ":" + std::to_string(port);
}

std::string Url::origin() const { return "http://" + host_header(); }

std::string Url::text() const { return scheme + "://" + host_header() + target; }

Url parse_url(const std::string& text) {
  auto sep = text.find("://");
  if (sep == std::string::npos) throw std::invalid_argument("\"" + text + "\" is not a URL (expected http://HOST:PORT/PATH)");
  Url u;
  u.scheme = text.substr(0, sep);
  for (auto& c : u.scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (u.scheme == "https" || u.scheme == "wss")
    throw std::invalid_argument("\"" + text + "\": " + u.scheme + " is not supported (plain http/ws only)");
  if (u.scheme != "http" && u.scheme != "ws")
    throw std::invalid_argument("\"" + text + "\": unknown scheme " + u.scheme + " (http or ws)");
  std::string rest = text.substr(sep + 3);
  auto slash = rest.find_first_of("/?#");
  std::string authority = rest.substr(0, slash);
  u.target = slash == std::string::npos ? "/" : rest.substr(slash);
  if (auto hash = u.target.find('#'); hash != std::string::npos) u.target.erase(hash);
  if (u.target.empty() || u.target[0] != '/') u.target = "/" + u.target;
  if (authority.find('@') != std::string::npos)
    throw std::invalid_argument("\"" + text + "\": credentials in the URL are not supported");
  std::string port;
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos) throw std::invalid_argument("\"" + text + "\": unterminated IPv6 address");
    u.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') throw std::invalid_argument("\"" + text + "\": junk after the IPv6 address");
      port = authority.substr(close + 2);
    }
  } else {
    auto colon = authority.rfind(':');
    u.host = authority.substr(0, colon);
    if (colon != std::string::npos) port = authority.substr(colon + 1);
  }
  if (u.host.empty()) throw std::invalid_argument("\"" + text + "\": no host");
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("\"" + text + "\": bad port \"" + port + "\"");
    u.port = std::stoi(port);
    if (u.port < 1 || u.port > 65535) throw std::invalid_argument("\"" + text + "\": port out of range");
  }
  return u;
}

Url resolve_url(const Url& base, const std::string& ref) {
  if (ref.find("://") != std::string::npos) return parse_url(ref);
  Url u = base;
  if (!ref.empty() && ref[0] == '/') {
    u.target = ref;
  } else {
    std::string dir = base.target.substr(0, base.target.find('?'));
    dir = dir.substr(0, dir.rfind('/') + 1);
    u.target = dir + ref;
  }
  return u;
}

}  // namespace mcpspec::transport::http
