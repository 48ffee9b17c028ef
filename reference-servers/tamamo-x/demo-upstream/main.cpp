// tamamo-x-demo-upstream: a small MCP server for putting behind tamamo-x-mcp in tests and
// suites. Its tools fall into three name-prefix families (weather_, notes_, ops_) so grouping has
// something to do, and ops_ tools misbehave on request: report their pid (to see a restart),
// fail with a JSON-RPC error, sleep, or crash the process.
#include "mcpref/dispatcher.hpp"
#include "mcpref/jsonrpc.hpp"
#include "mcpref/serve.hpp"
#include "mcpref/tool_result.hpp"
#include "mcpref/version_negotiation.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <thread>
#include <unistd.h>

namespace {

using mcpref::Json;
namespace rpc = mcpref::rpc;

Json schema(Json properties, Json required) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

Json string_property(const char* description) { return {{"type", "string"}, {"description", description}}; }

const Json& tool_list() {
  static const Json tools = Json::array({
      {{"name", "weather_forecast"}, {"description", "Weather forecast for a city"},
       {"inputSchema", schema({{"city", string_property("City name")},
                               {"days", {{"type", "integer"}, {"minimum", 1}, {"maximum", 7}}}}, {"city"})}},
      {{"name", "weather_alerts"}, {"description", "Active weather alerts for a region"},
       {"inputSchema", schema({{"region", string_property("Region name")}}, {"region"})}},
      {{"name", "notes_add"}, {"description", "Add a note to the notebook"},
       {"inputSchema", schema({{"text", string_property("The note")}}, {"text"})}},
      {{"name", "notes_list"}, {"description", "List the notes of the notebook"},
       {"inputSchema", schema(Json::object(), Json::array())}},
      {{"name", "ops_pid"}, {"description", "Report the process id of this server"},
       {"inputSchema", schema(Json::object(), Json::array())}},
      {{"name", "ops_fail"}, {"description", "Fail with a JSON-RPC error"},
       {"inputSchema", schema({{"reason", string_property("Why")}}, Json::array())}},
      {{"name", "ops_sleep"}, {"description", "Sleep for some milliseconds, then answer"},
       {"inputSchema", schema({{"ms", {{"type", "integer"}, {"minimum", 0}, {"maximum", 60000}}}}, {"ms"})}},
      {{"name", "ops_crash"}, {"description", "Crash this server process without answering"},
       {"inputSchema", schema(Json::object(), Json::array())}},
  });
  return tools;
}

std::string required_string(const Json& args, const char* key) {
  if (!args.contains(key) || !args[key].is_string()) {
    throw rpc::RpcError(rpc::kInvalidParams, fmt::format("Invalid params: '{}' must be a string", key));
  }
  return args[key].get<std::string>();
}

// Deterministic "weather" from the city's letters: no clock, no network.
std::string forecast(const std::string& city, int days) {
  unsigned sum = 0;
  for (unsigned char c : city) sum = sum * 31 + c;
  const char* skies[] = {"sunny", "partly cloudy", "cloudy", "rain", "windy"};
  return fmt::format("Forecast for {} ({} day(s)): {} C, {}", city, days, 5 + sum % 25, skies[sum % 5]);
}

class Tools {
 public:
  Json call(const Json& params) {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
      throw rpc::RpcError(rpc::kInvalidParams, "Invalid params: 'name' must be a string");
    }
    std::string name = params["name"].get<std::string>();
    Json args = params.value("arguments", Json::object());
    if (!args.is_object()) throw rpc::RpcError(rpc::kInvalidParams, "Invalid params: 'arguments' must be an object");
    if (name == "weather_forecast") {
      int days = args.contains("days") && args["days"].is_number_integer() ? args["days"].get<int>() : 1;
      return mcpref::tool_success(forecast(required_string(args, "city"), std::clamp(days, 1, 7)));
    }
    if (name == "weather_alerts") return mcpref::tool_success("No weather alerts for " + required_string(args, "region") + ".");
    if (name == "notes_add") {
      notes_.push_back(required_string(args, "text"));
      return mcpref::tool_success(fmt::format("Note {} added: {}", notes_.size(), notes_.back()));
    }
    if (name == "notes_list") {
      std::string text = fmt::format("{} note(s)", notes_.size());
      for (std::size_t i = 0; i < notes_.size(); ++i) text += fmt::format("\n{}. {}", i + 1, notes_[i]);
      return mcpref::tool_success(text);
    }
    if (name == "ops_pid") return mcpref::tool_success(fmt::format("pid {}", ::getpid()));
    if (name == "ops_fail") {
      std::string reason = args.contains("reason") && args["reason"].is_string() ? args["reason"].get<std::string>()
                                                                                 : "asked to fail";
      throw rpc::RpcError(rpc::kInternalError, "Tool failed: " + reason);
    }
    if (name == "ops_sleep") {
      if (!args.contains("ms") || !args["ms"].is_number_integer() || args["ms"].get<long long>() < 0 ||
          args["ms"].get<long long>() > 60000) {
        throw rpc::RpcError(rpc::kInvalidParams, "Invalid params: 'ms' must be an integer from 0 to 60000");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(args["ms"].get<long long>()));
      return mcpref::tool_success(fmt::format("slept {} ms", args["ms"].get<long long>()));
    }
    if (name == "ops_crash") ::_exit(3);
    throw rpc::RpcError(rpc::kInvalidParams, "Unknown tool: " + name);
  }

 private:
  std::vector<std::string> notes_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tamamo-x-demo-upstream: a small MCP server with weather_, notes_ and ops_ tools"};
  std::string transport = "stdio";
  std::string name = "tamamo-x-demo-upstream";
  int port = 0;
  app.add_option("-t,--transport", transport, "stdio, http or websocket");
  app.add_option("-p,--port", port, "Port for http/websocket (0: any free port, printed on stderr)")
      ->check(CLI::Range(0, 65535));
  app.add_option("--name", name, "serverInfo.name to announce");
  CLI11_PARSE(app, argc, argv);
  auto chosen = mcpref::parse_transport(transport);
  if (!chosen) {
    std::fprintf(stderr, "tamamo-x-demo-upstream: --transport '%s' is not stdio, http or websocket\n", transport.c_str());
    return 2;
  }

  Tools tools;
  mcpref::Dispatcher dispatcher;
  dispatcher.on_request("initialize", [&name](const Json& params) {
    return Json{{"protocolVersion", mcpref::negotiate_protocol_version(params, {"2024-11-05", "2025-03-26", "2025-06-18"})},
                {"capabilities", {{"tools", {{"listChanged", false}}}}},
                {"serverInfo", {{"name", name}, {"version", "1.0.0"}}}};
  });
  dispatcher.on_request("ping", [](const Json&) { return Json::object(); });
  dispatcher.on_request("tools/list", [](const Json&) { return Json{{"tools", tool_list()}}; });
  dispatcher.on_request("tools/call", [&tools](const Json& params) { return tools.call(params); });
  dispatcher.on_notification("notifications/initialized", [](const Json&) {});

  mcpref::ServeOptions options;
  options.transport = *chosen;
  options.network.port = port;
  options.network.on_listening = [](int bound) { std::fprintf(stderr, "listening on port %d\n", bound); };
  return mcpref::serve(dispatcher, options);
}
