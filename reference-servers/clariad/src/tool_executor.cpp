#include "tool_executor.hpp"

#include "architecture_document.hpp"
#include "rpc_error.hpp"
#include "vision_document.hpp"

namespace clariad {

bool is_document_tool(const ToolSpec& tool) { return tool.name == kVisionTool || tool.name == kArchitectureTool; }

std::string run_document_tool(const ToolSpec& tool, const ToolArguments& args, ConversationStore& store) {
  const std::optional<std::string> conversation = args.text("conversation_id");
  const std::vector<ContextEntry> context = conversation ? store.entries(*conversation) : std::vector<ContextEntry>{};

  GeneratedDocument doc;
  if (tool.name == kVisionTool) {
    doc = build_vision_document(VisionInput{args.text("project_description").value_or(""), conversation}, context);
  } else if (tool.name == kArchitectureTool) {
    doc = build_architecture_document(
        ArchitectureInput{args.text("project_name").value_or(""), args.text("requirements").value_or(""), conversation},
        context);
  } else {
    throw RpcError(ErrorCode::InternalError, "tool " + std::string(tool.name) + " is not a document tool");
  }

  if (conversation) store.append(*conversation, ContextEntry{std::string(tool.name), doc.markdown, doc.facts});
  return doc.markdown;
}

}  // namespace clariad
