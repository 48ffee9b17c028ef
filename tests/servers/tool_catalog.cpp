#include "tool_catalog.hpp"

#include <vector>

#include "faults.hpp"

namespace testserver {

namespace {

struct ToolSpec {
  std::string_view name;
  std::string_view title;
  std::string_view description;
  json input_schema;
  bool read_only;
  bool modern = false;  // listed only at protocol 2026-07-28 (input rounds, listen, x-mcp-header)
};

json no_arguments() { return {{"type", "object"}, {"additionalProperties", false}}; }

std::vector<ToolSpec> tool_specs(const Options& opt) {
  std::vector<ToolSpec> specs = {
      {"echo", "Echo", "Returns the given text unchanged.",
       {{"type", "object"},
        {"properties", {{"text", {{"type", "string"}, {"description", "Text to send back"}}}}},
        {"required", {"text"}},
        {"additionalProperties", false}},
       true},
      {"add", "Add", "Adds two numbers.",
       {{"type", "object"},
        {"properties", {{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}},
        {"required", {"a", "b"}},
        {"additionalProperties", false}},
       true},
      {"slow_progress", "Slow progress",
       "Waits delay_ms between steps and reports progress after each one when the request "
       "has a progress token; honours cancellation.",
       {{"type", "object"},
        {"properties",
         {{"steps", {{"type", "integer"}, {"minimum", 1}, {"maximum", 20}, {"default", 3}}},
          {"delay_ms", {{"type", "integer"}, {"minimum", 0}, {"maximum", 1000}, {"default", 50}}}}},
        {"additionalProperties", false}},
       true},
      {"fail", "Fail", "Always reports a tool execution error.", no_arguments(), true},
      {"image", "Image", "Returns a small PNG image.", no_arguments(), true},
      {"delete_everything", "Delete everything",
       "Announced as destructive so that careful clients leave it alone; it deletes nothing.",
       no_arguments(), false},
  };
  // Protocol 2026-07-28 only (tools/list of a legacy session does not show them).
  specs.push_back({"confirm", "Confirm", "Asks the user to confirm (an elicitation input round), then reports the answer.",
                   {{"type", "object"},
                    {"properties", {{"target", {{"type", "string"}, {"description", "What to confirm"}}}}},
                    {"required", {"target"}},
                    {"additionalProperties", false}},
                   true, true});
  specs.push_back({"brainstorm", "Brainstorm",
                   "Asks the client's model for ideas (a sampling input round; with sampling.tools, one tool round).",
                   {{"type", "object"},
                    {"properties", {{"topic", {{"type", "string"}, {"description", "What to brainstorm about"}}}}},
                    {"additionalProperties", false}},
                   true, true});
  // Read-only: it changes nothing, it only says so (a generic listen check calls every read-only tool).
  specs.push_back({"touch_catalog", "Touch catalog",
                   "Announces a change of the tool list on the listen streams that asked for one.", no_arguments(),
                   true, true});
  specs.push_back({"region_echo", "Region echo", "Returns the region it was given (mirrored into Mcp-Param-Region over HTTP).",
                   {{"type", "object"},
                    {"properties", {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}}}},
                    {"required", {"region"}},
                    {"additionalProperties", false}},
                   true, true});
  // Runs only as a task of the tasks extension (tasks.cpp): -32021 without it.
  specs.push_back({"slow_report", "Slow report", "Writes a report on a topic as a task (needs the io.modelcontextprotocol/tasks extension).",
                   {{"type", "object"},
                    {"properties", {{"topic", {{"type", "string"}, {"description", "What the report is about"}}}}},
                    {"additionalProperties", false}},
                   true, true});
  // Tasks only as well: one asks for input in two rounds, one fails (tasks.hpp says how).
  specs.push_back({"interview", "Interview",
                   "Asks two questions as a task, one input round each (needs the io.modelcontextprotocol/tasks extension).",
                   no_arguments(), true, true});
  specs.push_back({"broken_job", "Broken job", "Starts a job as a task that then fails (needs the io.modelcontextprotocol/tasks extension).",
                   no_arguments(), true, true});
  if (opt.fault == Fault::tool_name_invalid) {
    specs.push_back({kBadlyNamedTool, "Badly named", "Says hello; its name breaks the naming rules.",
                     no_arguments(), true});
  }
  return specs;
}

}  // namespace

json add_output_schema() {
  return {{"type", "object"},
          {"properties", {{"sum", {{"type", "number"}}}}},
          {"required", {"sum"}},
          {"additionalProperties", false}};
}

json published_tools(const Options& opt, Version v) {
  json tools = json::array();
  for (const auto& spec : tool_specs(opt)) {
    if (spec.modern && v < Version::v2026_07_28) continue;
    json t = {{"name", spec.name}, {"description", spec.description}};
    t["inputSchema"] = spec.input_schema;
    if (spec.name == "echo" && opt.fault == Fault::tool_schema_not_object) {
      t["inputSchema"] = {{"type", "string"}};
    }
    // Each field only where the revision defines it.
    if (v >= Version::v2025_06_18) t["title"] = spec.title;
    if (v >= Version::v2025_03_26) {
      t["annotations"] = spec.read_only
                             ? json{{"readOnlyHint", true}}
                             : json{{"readOnlyHint", false}, {"destructiveHint", true},
                                    {"idempotentHint", true}, {"openWorldHint", false}};
    }
    if (v >= Version::v2025_06_18 && spec.name == "add") t["outputSchema"] = add_output_schema();
    if (v >= Version::v2026_07_28 && spec.name == "add" && opt.fault == Fault::output_schema_invalid)
      t["outputSchema"]["required"] = "sum";
    if (v >= Version::v2026_07_28 && spec.name == "add" && opt.fault == Fault::input_schema_untyped)
      t["inputSchema"].erase("type");
    tools.push_back(std::move(t));
  }
  return tools;
}

json input_schema_of(const Options& opt, Version v, std::string_view tool) {
  for (auto& spec : tool_specs(opt)) {
    if (spec.name == tool && (!spec.modern || v >= Version::v2026_07_28)) return std::move(spec.input_schema);
  }
  return nullptr;
}

}  // namespace testserver
