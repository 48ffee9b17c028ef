#include "upstream_channel.hpp"

#include "mcpref/http_client_channel.hpp"
#include "mcpref/jsonrpc.hpp"
#include "mcpref/stdio_client_channel.hpp"
#include "mcpref/websocket_client_channel.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tamamo {

using mcpref::Json;

std::unique_ptr<mcpref::ClientChannel> make_channel(const UpstreamConfig& upstream) {
  switch (upstream.transport) {
    case UpstreamTransport::Stdio: {
      mcpref::StdioClientOptions options;
      if (!upstream.shell.empty()) {
        options.command = upstream.shell;
      } else {
        // The environment of .mcp.json entries is added through env(1), which keeps ours and
        // sets theirs, instead of rebuilding an environment block by hand.
        if (!upstream.env.empty()) {
          options.argv.push_back("env");
          for (const auto& [key, value] : upstream.env) options.argv.push_back(key + "=" + value);
        }
        options.argv.insert(options.argv.end(), upstream.argv.begin(), upstream.argv.end());
      }
      return std::make_unique<mcpref::StdioClientChannel>(options);
    }
    case UpstreamTransport::WebSocket:
      return std::make_unique<mcpref::WebSocketClientChannel>(mcpref::WebSocketClientOptions{upstream.url});
    case UpstreamTransport::Http: {
      mcpref::HttpClientOptions options;
      options.url = upstream.url;
      return std::make_unique<mcpref::HttpClientChannel>(options);
    }
  }
  throw mcpref::ChannelClosed("unknown transport");
}

const std::vector<std::string>& upstream_protocol_versions() {
  static const std::vector<std::string> versions = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
  return versions;
}

Handshake connect_upstream(mcpref::ClientChannel& channel, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    auto rest = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    return std::max(rest, std::chrono::milliseconds(1));
  };
  channel.on_request([](const std::string& method, const Json&) -> Json {
    if (method == "ping") return Json::object();
    throw mcpref::rpc::RpcError(mcpref::rpc::kMethodNotFound, "Method not found: " + method);
  });
  channel.open(left());
  // The document's client request: protocol 2024-11-05, tools capability, our name and version.
  Json params = {{"protocolVersion", kUpstreamProtocol},
                 {"capabilities", {{"tools", Json::object()}}},
                 {"clientInfo", {{"name", "tamamo-x-mcp"}, {"version", kVersion}}}};
  Json result = channel.request("initialize", params, left());
  if (!result.is_object() || !result.contains("protocolVersion") || !result["protocolVersion"].is_string()) {
    throw mcpref::ServerError(mcpref::rpc::kInvalidRequest, "the initialize answer has no protocolVersion");
  }
  std::string version = result["protocolVersion"].get<std::string>();
  const auto& known = upstream_protocol_versions();
  if (std::find(known.begin(), known.end(), version) == known.end()) {
    // A version we cannot speak ends the connection before it is used (the caller closes it).
    throw mcpref::ServerError(mcpref::rpc::kInvalidRequest,
                              fmt::format("the server answered protocol version '{}', which tamamo does not speak", version));
  }
  channel.notify("notifications/initialized", Json::object());
  Handshake out;
  out.protocol_version = version;
  out.server_info = result.value("serverInfo", Json::object());
  out.capabilities = result.value("capabilities", Json::object());
  return out;
}

}  // namespace tamamo
