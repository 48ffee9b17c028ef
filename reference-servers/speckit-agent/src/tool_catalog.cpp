#include "tool_catalog.hpp"

#include "spec_directory.hpp"

#include "mcpref/jsonrpc.hpp"

#include <set>

namespace speckit {

using mcpref::Json;
using mcpref::rpc::RpcError;

namespace {

Json string_property(const char* description) { return Json{{"type", "string"}, {"description", description}}; }

Json directory_property() { return string_property("Absolute path to specification directory"); }

Json tool(const char* name, const char* description, Json properties, Json required) {
  Json schema = Json::object();
  schema["type"] = "object";
  schema["properties"] = std::move(properties);
  schema["required"] = std::move(required);
  Json t = Json::object();
  t["name"] = name;
  t["description"] = description;
  t["inputSchema"] = std::move(schema);
  return t;
}

RpcError bad_argument(const std::string& name, const std::string& message) {
  return RpcError(mcpref::rpc::kInvalidParams, message, Json{{"argument", name}});
}

std::string required_string(const Json& args, const std::string& name) {
  auto it = args.find(name);
  if (it == args.end()) throw bad_argument(name, "missing required argument: " + name);
  if (!it->is_string()) throw bad_argument(name, "argument " + name + " must be a string, got " + it->type_name());
  return it->get<std::string>();
}

}  // namespace

Json tool_definitions() {
  Json tools = Json::array();
  tools.push_back(tool("speckit.specify", "Create or update feature specification",
                       Json{{"feature_description", string_property("Natural language description of the feature")},
                            {"spec_directory", directory_property()}},
                       Json::array({"feature_description", "spec_directory"})));
  Json questions{{"type", "array"},
                 {"items", Json{{"type", "string"}}},
                 {"description", "Specific questions to clarify (optional)"}};
  tools.push_back(tool("speckit.clarify", "Record clarification questions for the specification",
                       Json{{"spec_directory", directory_property()}, {"questions", questions}},
                       Json::array({"spec_directory"})));
  tools.push_back(tool("speckit.plan", "Generate implementation plan", Json{{"spec_directory", directory_property()}},
                       Json::array({"spec_directory"})));
  tools.push_back(tool("speckit.tasks", "Generate the task checklist from the plan",
                       Json{{"spec_directory", directory_property()}}, Json::array({"spec_directory"})));
  tools.push_back(tool("speckit.implement", "Work through the open tasks",
                       Json{{"spec_directory", directory_property()},
                            {"task_filter", string_property("Optional filter for specific tasks to implement")}},
                       Json::array({"spec_directory"})));
  return tools;
}

WorkflowCall parse_tool_call(const Json& params) {
  if (!params.is_object()) throw RpcError(mcpref::rpc::kInvalidParams, "tools/call needs params with a tool name");
  auto name_it = params.find("name");
  if (name_it == params.end() || !name_it->is_string())
    throw RpcError(mcpref::rpc::kInvalidParams, "tools/call needs a string \"name\"");
  WorkflowCall call;
  call.tool = name_it->get<std::string>();

  std::set<std::string> allowed;
  for (const auto& t : tool_definitions())
    if (t["name"] == call.tool)
      for (const auto& [key, _] : t["inputSchema"]["properties"].items()) allowed.insert(key);
  if (allowed.empty()) throw RpcError(mcpref::rpc::kInvalidParams, "unknown tool: " + call.tool, Json{{"tool", call.tool}});

  Json args = params.value("arguments", Json::object());
  if (!args.is_object()) throw bad_argument("arguments", "arguments must be an object");
  for (const auto& [key, _] : args.items())
    if (!allowed.count(key)) throw bad_argument(key, "unknown argument for " + call.tool + ": " + key);

  call.spec_directory = required_string(args, "spec_directory");
  if (auto problem = spec_directory_problem(call.spec_directory)) throw bad_argument("spec_directory", *problem);
  if (call.tool == "speckit.specify") {
    call.feature_description = required_string(args, "feature_description");
    if (call.feature_description.find_first_not_of(" \t\r\n") == std::string::npos)
      throw bad_argument("feature_description", "feature_description is empty");
  }
  if (args.contains("questions")) {
    const Json& q = args["questions"];
    if (!q.is_array()) throw bad_argument("questions", "argument questions must be an array of strings");
    for (const auto& item : q) {
      if (!item.is_string()) throw bad_argument("questions", "argument questions must be an array of strings");
      call.questions.push_back(item.get<std::string>());
    }
  }
  if (args.contains("task_filter")) call.task_filter = required_string(args, "task_filter");
  return call;
}

}  // namespace speckit
