// Everything the server writes on stdout goes through Wire: whole lines under one mutex (the
// slow-call workers write too), and the response-shape faults are applied in one place.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

#include "faults.hpp"
#include "json_text.hpp"

namespace testserver {

namespace rpc_code {
constexpr int parse_error = -32700;
constexpr int invalid_request = -32600;
constexpr int method_not_found = -32601;
constexpr int invalid_params = -32602;
constexpr int internal_error = -32603;
constexpr int resource_not_found = -32002;  // MCP's code for resources/read of an unknown URI
}  // namespace rpc_code

struct RpcError {
  int code;
  std::string message;
  json data = nullptr;  // null: no "data" member
};

class Wire {
 public:
  explicit Wire(Fault fault, int fd = 1) : fault_(fault), fd_(fd) {}
  Wire(const Wire&) = delete;
  Wire& operator=(const Wire&) = delete;

  void send(const json& message);
  void send_text_line(std::string_view text);  // for faults that break the framing
  void send_string_flood(std::size_t bytes);   // one line holding a bare JSON string

  json result_response(const json& id, json result) const;
  json error_response(const json& id, const RpcError& error) const;
  static json notification(std::string_view method, json params);

 private:
  void write_locked(std::string_view bytes);  // caller holds mu_
  json response_id(const json& id) const;

  std::mutex mu_;
  Fault fault_;
  int fd_;
};

}  // namespace testserver
