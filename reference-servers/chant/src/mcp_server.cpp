#include "mcp_server.hpp"

#include "mcpref/jsonrpc.hpp"
#include "mcpref/stdio_server.hpp"
#include "mcpref/version_negotiation.hpp"

namespace chant {

using mcpref::Json;

void register_mcp_methods(mcpref::Dispatcher& dispatcher, const ToolContext& context) {
  dispatcher.on_request("initialize", [](const Json& params) {
    if (!params.is_null() && !params.is_object()) {
      throw mcpref::rpc::RpcError(mcpref::rpc::kInvalidParams,
                                  "Invalid params: initialize params must be an object");
    }
    Json result = Json::object();
    result["protocolVersion"] = mcpref::negotiate_protocol_version(params, {kProtocolVersion});
    result["capabilities"] = Json{{"tools", Json::object()}};
    result["serverInfo"] = Json{{"name", kServerName}, {"version", kServerVersion}};
    return result;
  });
  dispatcher.on_request("ping", [](const Json&) { return Json::object(); });
  dispatcher.on_request("tools/list", [](const Json&) { return tools_list_result(); });
  dispatcher.on_request("tools/call", [context](const Json& params) { return call_tool(context, params); });
  dispatcher.on_notification("notifications/initialized", [](const Json&) {});
  // Every call completes before the next line is read, so there is never anything to cancel.
  dispatcher.on_notification("notifications/cancelled", [](const Json&) {});
}

int serve_mcp_stdio(const ToolContext& context) {
  mcpref::Dispatcher dispatcher;
  register_mcp_methods(dispatcher, context);
  return mcpref::serve_stdio(dispatcher);
}

}  // namespace chant
