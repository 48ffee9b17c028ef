// The 14 chant MCP tools: their catalog (tools/list) and tools/call semantics.
#pragma once

#include "spec_store.hpp"
#include "tool_args.hpp"

#include "mcpref/json.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace chant {

// Where tool calls look for the project. The project is looked up on every call, so a server
// started before `chant init` works as soon as the project exists.
struct ToolContext {
  std::filesystem::path start_dir;
  bool exact_project = false;  // only start_dir itself (chant --project DIR), no walking up
  std::chrono::milliseconds lock_timeout{10000};
};

// Returns the complete CallToolResult on success; throws ToolError for documented failures.
using ToolFunction = mcpref::Json (*)(SpecStore& store, const ToolArgs& args);

struct ToolInfo {
  const char* name;
  const char* description;
  bool read_only;
  bool destructive;
  bool idempotent;
  mcpref::Json (*input_schema)();
  ToolFunction run;
  bool has_required_params() const;
};

// In tools/list order: query tools, then mutating tools.
const std::vector<ToolInfo>& tool_catalog();
const ToolInfo* find_tool(std::string_view name);

// {"tools":[...]} with inputSchema and annotations for each tool.
mcpref::Json tools_list_result();

// The whole tools/call method: argument envelope checks, project lookup, the tool itself.
// Documented failures come back as isError results; only unexpected failures throw.
mcpref::Json call_tool(const ToolContext& context, const mcpref::Json& params);

// Tool bodies (tools_query.cpp, tools_mutating.cpp, diagnose.cpp).
mcpref::Json tool_spec_list(SpecStore&, const ToolArgs&);
mcpref::Json tool_spec_get(SpecStore&, const ToolArgs&);
mcpref::Json tool_ready(SpecStore&, const ToolArgs&);
mcpref::Json tool_status(SpecStore&, const ToolArgs&);
mcpref::Json tool_log(SpecStore&, const ToolArgs&);
mcpref::Json tool_search(SpecStore&, const ToolArgs&);
mcpref::Json tool_diagnose(SpecStore&, const ToolArgs&);
mcpref::Json tool_verify(SpecStore&, const ToolArgs&);
mcpref::Json tool_spec_update(SpecStore&, const ToolArgs&);
mcpref::Json tool_add(SpecStore&, const ToolArgs&);
mcpref::Json tool_finalize(SpecStore&, const ToolArgs&);
mcpref::Json tool_resume(SpecStore&, const ToolArgs&);
mcpref::Json tool_cancel(SpecStore&, const ToolArgs&);
mcpref::Json tool_archive(SpecStore&, const ToolArgs&);

}  // namespace chant
