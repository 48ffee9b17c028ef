#pragma once
// vision_agent: a Vision & Scope document assembled from the project description, the domains
// it mentions and (when a conversation_id is given) the previous revision in that conversation.
// No model and no clock are involved: the same description and the same conversation history
// always produce the same bytes.
#include <optional>
#include <string>
#include <vector>

#include "conversation_store.hpp"
#include "json_types.hpp"

namespace clariad {

struct VisionInput {
  std::string description;
  std::optional<std::string> conversation_id;
};

struct GeneratedDocument {
  std::string markdown;
  Json facts;  // stored in the conversation context for later tools
};

inline constexpr const char* kVisionTool = "vision_agent";

GeneratedDocument build_vision_document(const VisionInput& input, const std::vector<ContextEntry>& context);

// The most recent vision_agent facts in a conversation, if any.
std::optional<Json> latest_facts(const std::vector<ContextEntry>& context, const std::string& tool);

}  // namespace clariad
