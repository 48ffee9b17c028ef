// The sub-agents as MCP tools: one tool per group, taking a `task` (and optional `data`). A call
// picks the grouped tool(s) that fit the task, calls them through their original servers, and
// answers with their results and the names of the tools used.
//
// Picking, without a language model:
//   - explicit: data = {"tool": NAME, "arguments": {...}} calls that tool (it must be in the group);
//   - otherwise each grouped tool is scored against the task's words: its full name in the task
//     10, each part of its name 3, each word of its description 1 (common words ignored); the
//     tools with the highest positive score are called, in group order.
// Arguments: the members of `data` that the tool's input schema names; a missing required string
// gets the task text after the tool's name (or the whole task), a missing required number the
// next number written in the task; anything else missing is an error asking for it in `data`.
#pragma once

#include "grouping.hpp"
#include "upstream_pool.hpp"

#include <chrono>
#include <vector>

namespace tamamo {

struct Selection {
  std::vector<const GroupedTool*> tools;
  std::string why;  // how they were picked
};

class SubAgents {
 public:
  SubAgents(std::vector<Group> groups, UpstreamPool& pool, std::chrono::milliseconds call_timeout);

  // The tools/list result.
  mcpref::Json list() const;
  // The tools/call result; throws mcpref::rpc::RpcError (-32602 for a bad call, -32603 when an
  // underlying tool failed) with data {toolName, details}.
  mcpref::Json call(const mcpref::Json& params) const;

  // Exposed for the tests.
  static Selection select(const Group& group, const std::string& task, const mcpref::Json& data);
  static mcpref::Json arguments_for(const GroupedTool& tool, const std::string& task, const mcpref::Json& data,
                                    bool explicit_call);
  const std::vector<Group>& groups() const { return groups_; }

 private:
  std::vector<Group> groups_;
  UpstreamPool& pool_;
  std::chrono::milliseconds call_timeout_;
};

mcpref::Json sub_agent_input_schema();

}  // namespace tamamo
