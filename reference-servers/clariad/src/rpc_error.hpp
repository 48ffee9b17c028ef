#pragma once
// JSON-RPC error codes and messages exactly as the Clariad document's error table lists them
// (note its "Invalid request" spelling), plus the exception used to carry one to the wire.
#include <stdexcept>
#include <string>
#include <string_view>

#include "json_types.hpp"

namespace clariad {

enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
};

std::string_view error_message(ErrorCode code);

// detail: a sentence naming what was wrong. pointer: JSON Pointer into the request that names
// where (empty when the problem is the line as a whole).
class RpcError : public std::runtime_error {
 public:
  RpcError(ErrorCode code, std::string detail, std::string pointer = {});
  ErrorCode code() const { return code_; }
  const std::string& detail() const { return detail_; }
  const std::string& pointer() const { return pointer_; }

 private:
  ErrorCode code_;
  std::string detail_;
  std::string pointer_;
};

// The "error" member of a response: {code, message, data: {detail, pointer?}}.
OJson error_object(const RpcError& error);

// A complete error response line body. id is null when the request id could not be read.
OJson error_response(const OJson& id, const RpcError& error);

}  // namespace clariad
