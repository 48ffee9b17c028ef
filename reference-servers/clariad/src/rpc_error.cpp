#include "rpc_error.hpp"

namespace clariad {

std::string_view error_message(ErrorCode code) {
  switch (code) {
    case ErrorCode::ParseError: return "Parse error";
    case ErrorCode::InvalidRequest: return "Invalid request";
    case ErrorCode::MethodNotFound: return "Method not found";
    case ErrorCode::InvalidParams: return "Invalid params";
    case ErrorCode::InternalError: return "Internal error";
  }
  return "Internal error";
}

RpcError::RpcError(ErrorCode code, std::string detail, std::string pointer)
    : std::runtime_error(detail), code_(code), detail_(std::move(detail)), pointer_(std::move(pointer)) {}

OJson error_object(const RpcError& error) {
  OJson data = OJson::object();
  data["detail"] = error.detail();
  if (!error.pointer().empty()) data["pointer"] = error.pointer();
  OJson obj = OJson::object();
  obj["code"] = static_cast<int>(error.code());
  obj["message"] = std::string(error_message(error.code()));
  obj["data"] = std::move(data);
  return obj;
}

OJson error_response(const OJson& id, const RpcError& error) {
  OJson response = OJson::object();
  response["jsonrpc"] = "2.0";
  response["id"] = id;
  response["error"] = error_object(error);
  return response;
}

}  // namespace clariad
