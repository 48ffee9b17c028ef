// The error codes the MCP client contract (seed 000) adds to JSON-RPC's own.
#pragma once

#include "mcpref/jsonrpc.hpp"

#include <string>

namespace speckit {

inline constexpr int kToolExecutionError = -32000;  // the tool ran and failed (missing spec.md, I/O)
inline constexpr int kTimeout = -32001;              // the call passed its deadline
inline constexpr int kCancelled = -32002;            // the client cancelled it with $/cancelRequest

// A tool that could not do its work: -32000 with the tool and directory in `data`, so a client
// can show the message and log the details.
mcpref::rpc::RpcError tool_failed(const std::string& tool, const std::string& directory, const std::string& message);

}  // namespace speckit
