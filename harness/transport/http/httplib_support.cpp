#include "harness/transport/http/httplib_support.hpp"

#include <httplib.h>

#include <algorithm>
#include <random>

namespace mcpspec::transport::http {

std::string new_session_id() {
  std::random_device rd;
  std::uniform_int_distribution<int> hex(0, 15);
  std::string id;
  for (int i = 0; i < 32; ++i) id += "0123456789abcdef"[hex(rd)];
  return id;
}

nlohmann::json request_headers(const httplib::Request& req) {
  nlohmann::json h = nlohmann::json::object();
  for (const auto& [k, v] : req.headers) {
    std::string name = k;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name == "remote_addr" || name == "remote_port" || name == "local_addr" || name == "local_port") continue;
    h[name] = v;
  }
  return h;
}

}  // namespace mcpspec::transport::http
