#include "network_refs.hpp"

#include <httplib.h>

namespace testclient {

using nlohmann::json;

namespace {

void collect(const json& schema, std::vector<std::string>& out, int depth) {
  if (depth > 64) return;  // deeper than any real schema: not followed
  if (schema.is_object()) {
    for (const auto& [key, value] : schema.items()) {
      if (key == "$ref" && value.is_string()) {
        const std::string ref = value.get<std::string>();
        if (ref.rfind("http://", 0) == 0 || ref.rfind("https://", 0) == 0) out.push_back(ref);
      } else {
        collect(value, out, depth + 1);
      }
    }
  } else if (schema.is_array()) {
    for (const auto& item : schema) collect(item, out, depth + 1);
  }
}

}  // namespace

std::vector<std::string> network_refs(const json& tools) {
  std::vector<std::string> out;
  if (!tools.is_array()) return out;
  for (const auto& tool : tools)
    if (tool.is_object())
      for (const char* key : {"inputSchema", "outputSchema"})
        if (tool.contains(key)) collect(tool[key], out, 0);
  return out;
}

int fetch_url(const std::string& url) {
  // scheme://host:port/path -> the origin and the path
  auto slash = url.find('/', url.find("://") + 3);
  const std::string origin = slash == std::string::npos ? url : url.substr(0, slash);
  const std::string path = slash == std::string::npos ? "/" : url.substr(slash);
  httplib::Client client(origin);
  client.set_connection_timeout(2, 0);
  client.set_read_timeout(2, 0);
  auto res = client.Get(path);
  return res ? res->status : -1;
}

}  // namespace testclient
