#include "tool_catalog.hpp"

namespace clariad {

namespace {

ParamSpec conversation_param() {
  return ParamSpec{.name = "conversation_id",
                   .kind = ParamSpec::Kind::String,
                   .required = false,
                   .description = "Optional ID to maintain context between conversations",
                   .max_chars = kMaxConversationIdChars,
                   .single_line = true};
}

std::vector<ToolSpec> build_catalog() {
  return {
      ToolSpec{"vision_agent",
               "Creates Vision & Scope documents to establish project requirements and goals",
               {ParamSpec{.name = "project_description",
                          .kind = ParamSpec::Kind::String,
                          .required = true,
                          .description = "Brief description of the project",
                          .max_chars = kMaxDescriptionChars},
                conversation_param()}},
      ToolSpec{"architecture_agent",
               "Designs system architecture and creates Architecture Decision Records (ADRs)",
               {ParamSpec{.name = "project_name",
                          .kind = ParamSpec::Kind::String,
                          .required = true,
                          .description = "Name of the project",
                          .max_chars = kMaxNameChars,
                          .single_line = true},
                ParamSpec{.name = "requirements",
                          .kind = ParamSpec::Kind::String,
                          .required = true,
                          .description = "Project requirements to consider for architecture",
                          .max_chars = kMaxRequirementsChars},
                conversation_param()}},
      ToolSpec{"long_running_operation",
               "Example of a long-running operation with streaming updates",
               {ParamSpec{.name = "operation_name",
                          .kind = ParamSpec::Kind::String,
                          .required = true,
                          .description = "Name of the operation to perform",
                          .max_chars = kMaxNameChars,
                          .single_line = true},
                ParamSpec{.name = "duration_seconds",
                          .kind = ParamSpec::Kind::Number,
                          .required = true,
                          .description = "How long the operation should take in seconds",
                          .minimum = kMinDurationSeconds,
                          .maximum = kMaxDurationSeconds}}},
  };
}

}  // namespace

const std::vector<ToolSpec>& tool_catalog() {
  static const std::vector<ToolSpec> catalog = build_catalog();
  return catalog;
}

const ToolSpec* find_tool(std::string_view name) {
  for (const ToolSpec& tool : tool_catalog()) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

OJson parameters_schema(const ToolSpec& tool) {
  OJson properties = OJson::object();
  OJson required = OJson::array();
  for (const ParamSpec& p : tool.params) {
    OJson prop = OJson::object();
    if (p.kind == ParamSpec::Kind::String) {
      prop["type"] = "string";
      prop["description"] = std::string(p.description);
      prop["minLength"] = 1;
      prop["maxLength"] = p.max_chars;
    } else {
      prop["type"] = "number";
      prop["description"] = std::string(p.description);
      prop["minimum"] = p.minimum;
      prop["maximum"] = p.maximum;
    }
    properties[std::string(p.name)] = std::move(prop);
    if (p.required) required.push_back(std::string(p.name));
  }
  OJson schema = OJson::object();
  schema["type"] = "object";
  schema["properties"] = std::move(properties);
  schema["required"] = std::move(required);
  schema["additionalProperties"] = false;
  return schema;
}

OJson legacy_tool_list() {
  OJson tools = OJson::array();
  for (const ToolSpec& tool : tool_catalog()) {
    OJson entry = OJson::object();
    entry["name"] = std::string(tool.name);
    entry["description"] = std::string(tool.description);
    entry["parameters"] = parameters_schema(tool);
    tools.push_back(std::move(entry));
  }
  OJson result = OJson::object();
  result["tools"] = std::move(tools);
  return result;
}

OJson mcp_tool_list(bool with_annotations) {
  OJson tools = OJson::array();
  for (const ToolSpec& tool : tool_catalog()) {
    OJson entry = OJson::object();
    entry["name"] = std::string(tool.name);
    entry["description"] = std::string(tool.description);
    entry["inputSchema"] = parameters_schema(tool);
    if (with_annotations) {
      // Nothing outside the server changes: documents are computed, and the only state is the
      // in-memory conversation context, which is lost at exit.
      OJson annotations = OJson::object();
      annotations["readOnlyHint"] = true;
      annotations["openWorldHint"] = false;
      entry["annotations"] = std::move(annotations);
    }
    tools.push_back(std::move(entry));
  }
  OJson result = OJson::object();
  result["tools"] = std::move(tools);
  return result;
}

}  // namespace clariad
