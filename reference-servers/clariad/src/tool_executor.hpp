#pragma once
// Runs the two document tools with the conversation context protocol of the Clariad document:
// retrieve the conversation's context, give it to the tool, store the tool's result.
// Shared by invoke_tool (legacy) and tools/call (MCP compatibility).
#include <string>

#include "conversation_store.hpp"
#include "tool_arguments.hpp"
#include "tool_catalog.hpp"

namespace clariad {

// True for tools answered at once with a document; false for long_running_operation.
bool is_document_tool(const ToolSpec& tool);

// Returns the Markdown output. Arguments must already have passed check_arguments().
std::string run_document_tool(const ToolSpec& tool, const ToolArguments& args, ConversationStore& store);

}  // namespace clariad
