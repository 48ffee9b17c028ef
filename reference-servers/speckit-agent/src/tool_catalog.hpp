// The five tools as the contract document lists them (names, descriptions, input schemas), and
// the check of a call's arguments against them.
#pragma once

#include "workflows.hpp"

#include "mcpref/json.hpp"

namespace speckit {

// The tools/list result's "tools" array.
mcpref::Json tool_definitions();

// tools/call params -> a checked call. Throws rpc::RpcError -32602 naming the bad argument
// (unknown tool, missing or mistyped argument, relative spec_directory, unknown argument).
WorkflowCall parse_tool_call(const mcpref::Json& params);

}  // namespace speckit
