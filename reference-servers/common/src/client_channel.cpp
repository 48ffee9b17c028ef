#include "mcpref/client_channel.hpp"

#include "mcpref/jsonrpc.hpp"

namespace mcpref {

Json result_or_throw(const Json& response) {
  if (response.contains("error")) {
    const Json& e = response["error"];
    int code = e.is_object() && e.contains("code") && e["code"].is_number_integer() ? e["code"].get<int>()
                                                                                    : rpc::kInternalError;
    std::string text = e.is_object() && e.contains("message") && e["message"].is_string()
                           ? e["message"].get<std::string>()
                           : "(error without a message)";
    throw ServerError(code, text, e.is_object() && e.contains("data") ? e["data"] : Json());
  }
  return response.contains("result") ? response["result"] : Json();
}

Json answer_server_request(const ClientChannel::RequestHandler& handler, const Json& id, const std::string& method,
                           const Json& params) {
  if (!handler) return rpc::make_error(id, rpc::kMethodNotFound, "Method not found: " + method);
  try {
    return rpc::make_result(id, handler(method, params));
  } catch (const rpc::RpcError& e) {
    return rpc::make_error(id, e.code(), e.what(), e.data());
  } catch (const std::exception& e) {
    return rpc::make_error(id, rpc::kInternalError, e.what());
  }
}

void ClientChannel::deliver_notification(const std::string& method, const Json& params) {
  NotificationHandler handler;
  {
    std::lock_guard lock(handlers_mutex_);
    handler = notification_handler_;
  }
  if (!handler) return;
  try {
    handler(method, params);
  } catch (...) {
    // A handler's failure is the client's business; the connection carries on.
  }
}

Json ClientChannel::answer_request(const Json& id, const std::string& method, const Json& params) {
  RequestHandler handler;
  {
    std::lock_guard lock(handlers_mutex_);
    handler = request_handler_;
  }
  return answer_server_request(handler, id, method, params);
}

}  // namespace mcpref
