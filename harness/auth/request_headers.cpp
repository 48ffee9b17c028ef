#include "harness/auth/request_headers.hpp"

#include <httplib.h>

#include <cctype>

namespace mcpspec::auth {

nlohmann::json recorded_headers(const httplib::Request& req) {
  nlohmann::json h = nlohmann::json::object();
  for (const auto& [k, v] : req.headers) {
    std::string name = k;
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == "remote_addr" || name == "remote_port" || name == "local_addr" || name == "local_port") continue;
    h[name] = v;
  }
  return h;
}

std::set<std::string> scope_set(const std::string& scope) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < scope.size();) {
    auto sp = scope.find(' ', i);
    if (sp == std::string::npos) sp = scope.size();
    if (sp > i) out.insert(scope.substr(i, sp - i));
    i = sp + 1;
  }
  return out;
}

}  // namespace mcpspec::auth
