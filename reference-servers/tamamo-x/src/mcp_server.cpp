#include "mcp_server.hpp"

#include "config.hpp"
#include "mutants.hpp"

#include "mcpref/jsonrpc.hpp"
#include "mcpref/version_negotiation.hpp"

namespace tamamo {

using mcpref::Json;

const std::vector<std::string>& supported_protocol_versions() {
  static const std::vector<std::string> versions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
  return versions;
}

void register_mcp_methods(mcpref::Dispatcher& dispatcher, const SubAgents& agents) {
  dispatcher.on_request("initialize", [&dispatcher](const Json& params) {
    // The tool list is fixed by `build`, so it never changes while we serve.
    bool list_changed = mutant("list-changed-true");
    std::string version = mcpref::negotiate_protocol_version(params, supported_protocol_versions());
    // JSON-RPC batches exist in 2025-03-26 only. Over stdio a process serves one session, so the
    // session's version decides; the HTTP server end decides per session itself.
    dispatcher.set_batch_support(version == "2025-03-26");
    return Json{{"protocolVersion", version},
                {"capabilities", {{"tools", {{"listChanged", list_changed}}}}},
                {"serverInfo", {{"name", "tamamo-x-mcp"}, {"version", kVersion}}}};
  });
  dispatcher.on_request("ping", [](const Json&) { return Json::object(); });
  dispatcher.on_request("tools/list", [&agents](const Json& params) {
    // We never hand out a cursor, so any cursor is one we did not issue.
    if (params.is_object() && params.contains("cursor")) {
      throw mcpref::rpc::RpcError(mcpref::rpc::kInvalidParams, "Invalid params: unknown cursor");
    }
    return agents.list();
  });
  dispatcher.on_request("tools/call", [&agents](const Json& params) { return agents.call(params); });
  dispatcher.on_notification("notifications/initialized", [](const Json&) {});
}

}  // namespace tamamo
