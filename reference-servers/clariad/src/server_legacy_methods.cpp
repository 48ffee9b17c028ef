// The two methods of the Clariad document: list_tools and invoke_tool.
#include <fmt/format.h>

#include "server.hpp"
#include "text_utils.hpp"
#include "tool_arguments.hpp"
#include "tool_executor.hpp"

namespace clariad {

namespace {

std::string tool_names() {
  std::string out;
  for (const ToolSpec& t : tool_catalog()) {
    if (!out.empty()) out += ", ";
    out += t.name;
  }
  return out;
}

}  // namespace

OJson Server::list_tools(const Message& msg) {
  // The document shows list_tools without params; an empty object is accepted too.
  if (!msg.params.is_null() && !msg.params.is_object()) {
    throw RpcError(ErrorCode::InvalidParams, "list_tools takes no parameters (omit params or send an object)", "/params");
  }
  return legacy_tool_list();
}

std::optional<OJson> Server::invoke_tool(const Message& msg) {
  if (msg.params.is_null()) {
    throw RpcError(ErrorCode::InvalidParams, "invoke_tool needs params {\"name\": ..., \"parameters\": {...}}", "/params");
  }
  if (!msg.params.is_object()) {
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("invoke_tool params must be an object, got {}", msg.params.type_name()), "/params");
  }
  for (const auto& [key, value] : msg.params.items()) {
    if (key != "name" && key != "parameters" && key != "_meta") {
      throw RpcError(ErrorCode::InvalidParams,
                     fmt::format("invoke_tool does not accept \"{}\" (accepted: name, parameters)", shorten(key, 80)),
                     "/params/" + pointer_token(shorten(key, 80)));
    }
  }
  const auto name = msg.params.find("name");
  if (name == msg.params.end()) throw RpcError(ErrorCode::InvalidParams, "invoke_tool needs a tool \"name\"", "/params/name");
  if (!name->is_string()) {
    throw RpcError(ErrorCode::InvalidParams, fmt::format("the tool name must be a string, got {}", name->type_name()),
                   "/params/name");
  }
  const ToolSpec* tool = find_tool(name->get_ref<const std::string&>());
  if (!tool) {
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("unknown tool \"{}\" (available: {})", shorten(name->get_ref<const std::string&>(), 100),
                               tool_names()),
                   "/params/name");
  }
  const auto parameters = msg.params.find("parameters");
  const ToolArguments args =
      check_arguments(*tool, parameters == msg.params.end() ? Json() : *parameters, "/params/parameters");

  if (is_document_tool(*tool)) {
    OJson result = OJson::object();
    result["output"] = run_document_tool(*tool, args, store_);
    return result;
  }
  OperationRequest request;
  request.id = to_ordered(msg.id);
  request.key = id_key(msg.id);
  request.name = args.text("operation_name").value_or("");
  request.duration_seconds = args.number("duration_seconds").value_or(0);
  request.mode = StreamMode::Legacy;
  runner_.start(std::move(request));
  return std::nullopt;
}

}  // namespace clariad
