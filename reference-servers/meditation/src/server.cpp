#include "server.hpp"

#include "mcpref/version_negotiation.hpp"

namespace meditation {

using mcpref::Json;

void refuse_cursor(const Json& params) {
  if (params.is_object() && params.contains("cursor"))
    throw mcpref::rpc::RpcError(mcpref::rpc::kInvalidParams, "Invalid params: unknown cursor (lists are not paginated)",
                                Json{{"cursor", params["cursor"]}});
}

void register_methods(mcpref::Dispatcher& dispatcher, NoteLibrary& library, const ServerConfig& config) {
  dispatcher.on_request("initialize", [](const Json& params) {
    if (!params.is_null() && !params.is_object())
      throw mcpref::rpc::RpcError(mcpref::rpc::kInvalidParams, "Invalid params: initialize params must be an object");
    // The contract document speaks 2024-11-05 only: any other proposal is answered with it.
    return Json{{"protocolVersion", mcpref::negotiate_protocol_version(params, {kProtocolVersion})},
                {"capabilities", {{"resources", Json::object()}, {"tools", Json::object()}}},
                {"serverInfo", {{"name", kServerName}, {"version", kServerVersion}}}};
  });
  dispatcher.on_request("ping", [](const Json&) { return Json::object(); });
  dispatcher.on_notification("notifications/initialized", [](const Json&) {});
  // Each request is finished before the next line is read: there is never anything to cancel.
  dispatcher.on_notification("notifications/cancelled", [](const Json&) {});
  register_resource_methods(dispatcher, library);
  register_tool_methods(dispatcher, library, config);
}

}  // namespace meditation
