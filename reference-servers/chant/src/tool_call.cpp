// tools/call: the envelope checks and error texts of the chant MCP document, in this order:
// params/name, unknown tool, project initialised, arguments, then the tool's own parameters.
#include "tools.hpp"

#include "project.hpp"
#include "tool_error.hpp"

#include "mcpref/tool_result.hpp"

#include <fmt/format.h>

namespace chant {

using mcpref::Json;

Json call_tool(const ToolContext& context, const Json& params) {
  if (!params.is_object() || !params.contains("name") || params["name"].is_null()) {
    return mcpref::tool_failure("Missing required parameter: name");
  }
  const Json& name = params["name"];
  if (!name.is_string() || name.get_ref<const std::string&>().empty()) {
    return mcpref::tool_failure("Missing tool name");
  }
  const ToolInfo* tool = find_tool(name.get_ref<const std::string&>());
  if (!tool) {
    return mcpref::tool_failure(fmt::format("Unknown tool: {}", name.get_ref<const std::string&>()));
  }

  auto project = find_project(context.start_dir, context.exact_project);
  if (!project) return mcpref::tool_failure(kNotInitialized);

  static const Json no_arguments = Json::object();
  const Json* arguments = &no_arguments;
  auto it = params.find("arguments");
  if (it != params.end() && !it->is_null()) {
    if (!it->is_object()) {
      return mcpref::tool_failure(
          fmt::format("Invalid arguments: expected an object, got {}", it->type_name()));
    }
    arguments = &*it;
  } else if (tool->has_required_params()) {
    // Tools without required parameters accept a call that leaves arguments out entirely.
    return mcpref::tool_failure("Missing arguments");
  }

  SpecStore store(*project, context.lock_timeout);
  try {
    return tool->run(store, ToolArgs(*arguments));
  } catch (const ToolError& e) {
    return mcpref::tool_failure(e.what());
  }
}

}  // namespace chant
