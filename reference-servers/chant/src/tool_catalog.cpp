// tools/list: names and descriptions as the chant MCP document gives them; input schemas add
// bounds and enums that state what the tools actually accept.
#include "tools.hpp"

#include "spec_status.hpp"

namespace chant {

using mcpref::Json;

namespace {

Json prop(const char* type, const char* description) {
  return Json{{"type", type}, {"description", description}};
}

Json id_prop() { return prop("string", "Spec ID (full or partial)"); }

Json status_filter_prop(const char* description) {
  Json p = prop("string", description);
  p["enum"] = Json::array({"pending", "in_progress", "completed", "failed", "blocked", "cancelled",
                           "needs_attention", "ready"});
  return p;
}

Json count_prop(const char* description) {
  Json p = prop("integer", description);
  p["minimum"] = 0;
  return p;
}

Json object_schema(Json properties, std::vector<const char*> required = {}) {
  Json s = Json::object();
  s["type"] = "object";
  s["properties"] = std::move(properties);
  if (!required.empty()) {
    Json r = Json::array();
    for (const char* name : required) r.push_back(name);
    s["required"] = std::move(r);
  }
  return s;
}

Json id_only_schema() { return object_schema(Json{{"id", id_prop()}}, {"id"}); }

Json list_schema() {
  return object_schema(Json{
      {"status", status_filter_prop(
                     "Filter by status (pending, in_progress, completed, failed, ready, blocked)")},
      {"limit", count_prop("Maximum number of specs to return (default: 50)")}});
}

Json get_schema() { return id_only_schema(); }

Json ready_schema() {
  return object_schema(Json{{"limit", count_prop("Maximum number of specs to return (default: 50)")}});
}

Json status_schema() {
  return object_schema(Json{
      {"brief", prop("boolean",
                     "Return brief single-line output (e.g., '3 pending | 2 in_progress | 15 completed')")},
      {"include_activity",
       prop("boolean",
            "Include activity info for in_progress specs (last modified time, log activity)")}});
}

Json log_schema() {
  return object_schema(
      Json{{"id", id_prop()}, {"lines", count_prop("Number of lines to return (default: 100)")}},
      {"id"});
}

Json search_schema() {
  return object_schema(
      Json{{"query", prop("string", "Search query (case-insensitive substring match)")},
           {"status", status_filter_prop("Filter by status")}},
      {"query"});
}

Json update_schema() {
  Json status = prop("string", "New status (pending, in_progress, completed, failed)");
  status["enum"] = Json::array({"pending", "in_progress", "completed", "failed"});
  return object_schema(Json{{"id", id_prop()},
                            {"status", status},
                            {"output", prop("string", "Output text to append to spec body")}},
                       {"id"});
}

Json add_schema() {
  return object_schema(
      Json{{"description", prop("string", "Description of work to be done (becomes spec title)")},
           {"prompt", prop("string", "Optional prompt template name to use")}},
      {"description"});
}

}  // namespace

bool ToolInfo::has_required_params() const { return input_schema().contains("required"); }

const std::vector<ToolInfo>& tool_catalog() {
  // name, description, readOnly, destructive, idempotent, schema, body
  static const std::vector<ToolInfo> tools = {
      {"chant_spec_list", "List all chant specs in the current project", true, false, true,
       list_schema, tool_spec_list},
      {"chant_spec_get", "Get details of a chant spec including full body content", true, false,
       true, get_schema, tool_spec_get},
      {"chant_ready", "List all specs that are ready to be worked (no unmet dependencies)", true,
       false, true, ready_schema, tool_ready},
      {"chant_status", "Get project status summary with spec counts by status", true, false, true,
       status_schema, tool_status},
      {"chant_log", "Read execution log for a spec", true, false, true, log_schema, tool_log},
      {"chant_search", "Search specs by title and body content", true, false, true, search_schema,
       tool_search},
      {"chant_diagnose", "Diagnose issues with a spec (check file, log, locks, commits, criteria)",
       true, false, true, id_only_schema, tool_diagnose},
      {"chant_verify", "Verify a spec meets its acceptance criteria", true, false, true,
       id_only_schema, tool_verify},
      {"chant_spec_update", "Update a chant spec status or add output", false, true, false,
       update_schema, tool_spec_update},
      {"chant_add", "Create a new spec with description", false, false, false, add_schema, tool_add},
      {"chant_finalize", "Mark a spec as completed (validates all criteria are checked)", false,
       true, true, id_only_schema, tool_finalize},
      {"chant_resume", "Reset a failed spec to pending status so it can be reworked", false, true,
       false, id_only_schema, tool_resume},
      {"chant_cancel", "Cancel a spec (sets status to cancelled)", false, true, false,
       id_only_schema, tool_cancel},
      {"chant_archive", "Move a completed spec to the archive directory", false, true, false,
       id_only_schema, tool_archive},
  };
  return tools;
}

const ToolInfo* find_tool(std::string_view name) {
  for (const auto& t : tool_catalog()) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

Json tools_list_result() {
  Json tools = Json::array();
  for (const auto& t : tool_catalog()) {
    Json entry = Json::object();
    entry["name"] = t.name;
    entry["description"] = t.description;
    entry["inputSchema"] = t.input_schema();
    Json annotations = Json::object();
    annotations["readOnlyHint"] = t.read_only;
    annotations["destructiveHint"] = t.destructive;
    annotations["idempotentHint"] = t.idempotent;
    annotations["openWorldHint"] = false;  // only ever touches the local .chant/ directory
    entry["annotations"] = std::move(annotations);
    tools.push_back(std::move(entry));
  }
  return Json{{"tools", std::move(tools)}};
}

}  // namespace chant
