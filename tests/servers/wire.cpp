#include "wire.hpp"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace testserver {

void Wire::write_locked(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    // The client stopped reading our stdout: nobody can hear us any more, so leave quietly.
    // _exit, not exit: a worker thread may be the one writing.
    std::fprintf(stderr, "mcpspec-testserver: stdout closed (%s), exiting\n",
                 n < 0 ? std::strerror(errno) : "short write");
    ::_exit(0);
  }
}

void Wire::send(const json& message) {
  std::string line = to_line(message);
  line.push_back('\n');
  std::lock_guard lock(mu_);
  write_locked(line);
}

void Wire::send_text_line(std::string_view text) {
  std::string line(text);
  line.push_back('\n');
  std::lock_guard lock(mu_);
  write_locked(line);
}

void Wire::send_string_flood(std::size_t bytes) {
  const std::string chunk(1 << 20, 'x');
  std::lock_guard lock(mu_);
  write_locked("\"");
  std::size_t left = bytes > 2 ? bytes - 2 : 0;
  while (left > 0) {
    std::size_t n = left < chunk.size() ? left : chunk.size();
    write_locked(std::string_view(chunk).substr(0, n));
    left -= n;
  }
  write_locked("\"\n");
}

json Wire::response_id(const json& id) const {
  if (fault_ != Fault::string_id_as_int || !id.is_string()) return id;
  const auto& s = id.get_ref<const std::string&>();
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec == std::errc() && end == s.data() + s.size()) return n;
  // Not numeric: any stable number will do, it only has to differ from the string.
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return static_cast<std::int64_t>(h & 0x7fffffff);
}

json Wire::result_response(const json& id, json result) const {
  json r = json::object();
  if (fault_ != Fault::missing_jsonrpc) r["jsonrpc"] = "2.0";
  r["id"] = response_id(id);
  r["result"] = std::move(result);
  return r;
}

json Wire::error_response(const json& id, const RpcError& error) const {
  json e = json::object();
  if (fault_ == Fault::error_code_string) {
    e["code"] = std::to_string(error.code);
  } else if (!(fault_ == Fault::null_id_parse_error_missing && error.code == rpc_code::parse_error)) {
    e["code"] = error.code;
  }
  e["message"] = error.message;
  if (!error.data.is_null()) e["data"] = error.data;
  json r = json::object();
  if (fault_ != Fault::missing_jsonrpc) r["jsonrpc"] = "2.0";
  r["id"] = response_id(id);
  r["error"] = std::move(e);
  if (fault_ == Fault::result_and_error) r["result"] = json::object();
  return r;
}

json Wire::notification(std::string_view method, json params) {
  json n = json::object();
  n["jsonrpc"] = "2.0";
  n["method"] = method;
  if (!params.is_null()) n["params"] = std::move(params);
  return n;
}

}  // namespace testserver
