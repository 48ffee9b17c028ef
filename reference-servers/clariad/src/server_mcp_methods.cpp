// MCP compatibility mode: initialize, tools/list and tools/call answered the standard way, so
// that an MCP client can use Clariad's tools while legacy clients keep using list_tools and
// invoke_tool. Tool argument problems come back as isError results here (MCP's advice), but
// as -32602 errors from invoke_tool (the Clariad document's table).
#include <fmt/format.h>

#include <algorithm>

#include "server.hpp"
#include "text_utils.hpp"
#include "tool_arguments.hpp"
#include "tool_executor.hpp"

namespace clariad {

namespace {

OJson text_content_result(const std::string& text, bool is_error) {
  OJson content = OJson::object();
  content["type"] = "text";
  content["text"] = text;
  OJson result = OJson::object();
  result["content"] = OJson::array({content});
  result["isError"] = is_error;
  return result;
}

const Json& require_object_params(const Message& msg) {
  if (!msg.params.is_object()) {
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("{} needs params as an object, got {}", msg.method,
                               msg.params.is_null() ? "none" : msg.params.type_name()),
                   "/params");
  }
  return msg.params;
}

}  // namespace

OJson Server::initialize(const Message& msg) {
  const Json& params = require_object_params(msg);
  const auto requested = params.find("protocolVersion");
  if (requested == params.end() || !requested->is_string()) {
    throw RpcError(ErrorCode::InvalidParams, "initialize needs \"protocolVersion\" as a string",
                   "/params/protocolVersion");
  }
  const std::string& version = requested->get_ref<const std::string&>();
  const bool supported = std::find(std::begin(kMcpVersions), std::end(kMcpVersions), version) != std::end(kMcpVersions);
  negotiated_version_ = supported ? version : std::string(kMcpVersions[std::size(kMcpVersions) - 1]);

  OJson tools = OJson::object();
  tools["listChanged"] = false;
  OJson capabilities = OJson::object();
  capabilities["tools"] = std::move(tools);
  OJson info = OJson::object();
  info["name"] = std::string(kServerName);
  info["version"] = std::string(kServerVersion);

  OJson result = OJson::object();
  result["protocolVersion"] = negotiated_version_;
  result["capabilities"] = std::move(capabilities);
  result["serverInfo"] = std::move(info);
  result["instructions"] =
      "Clariad agents: vision_agent writes a Vision & Scope document, architecture_agent an architecture with ADRs. "
      "Pass the same conversation_id to both so the architecture builds on the vision.";
  return result;
}

OJson Server::tools_list(const Message& msg) {
  if (!msg.params.is_null() && !msg.params.is_object()) {
    throw RpcError(ErrorCode::InvalidParams, "tools/list params must be an object", "/params");
  }
  if (msg.params.is_object() && msg.params.contains("cursor")) {
    // Every tool fits on the first page, so no cursor we could have issued exists.
    throw RpcError(ErrorCode::InvalidParams, "invalid cursor: tools/list has a single page", "/params/cursor");
  }
  return mcp_tool_list(annotations_allowed());
}

std::optional<OJson> Server::tools_call(const Message& msg) {
  const Json& params = require_object_params(msg);
  const auto name = params.find("name");
  if (name == params.end() || !name->is_string()) {
    throw RpcError(ErrorCode::InvalidParams, "tools/call needs the tool \"name\" as a string", "/params/name");
  }
  const ToolSpec* tool = find_tool(name->get_ref<const std::string&>());
  if (!tool) {
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("unknown tool \"{}\"", shorten(name->get_ref<const std::string&>(), 100)),
                   "/params/name");
  }
  const auto arguments = params.find("arguments");
  if (arguments != params.end() && !arguments->is_null() && !arguments->is_object()) {
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("tools/call arguments must be an object, got {}", arguments->type_name()),
                   "/params/arguments");
  }
  std::optional<OJson> progress_token;
  if (const auto meta = params.find("_meta"); meta != params.end() && meta->is_object()) {
    if (const auto token = meta->find("progressToken"); token != meta->end()) {
      if (!token->is_string() && !token->is_number_integer()) {
        throw RpcError(ErrorCode::InvalidParams, "progressToken must be a string or an integer",
                       "/params/_meta/progressToken");
      }
      progress_token = to_ordered(*token);
    }
  }

  ToolArguments args;
  try {
    args = check_arguments(*tool, arguments == params.end() ? Json() : *arguments, "/params/arguments");
  } catch (const RpcError& e) {
    return text_content_result(e.detail(), true);
  }

  if (is_document_tool(*tool)) return text_content_result(run_document_tool(*tool, args, store_), false);

  OperationRequest request;
  request.id = to_ordered(msg.id);
  request.key = id_key(msg.id);
  request.name = args.text("operation_name").value_or("");
  request.duration_seconds = args.number("duration_seconds").value_or(0);
  request.mode = StreamMode::Mcp;
  request.progress_token = std::move(progress_token);
  request.progress_message = negotiated_version_ >= "2025-03-26";
  runner_.start(std::move(request));
  return std::nullopt;
}

}  // namespace clariad
