#pragma once
// architecture_agent: an architecture document (drivers, style, components, data flow,
// quality attributes, ADRs, traceability) from the project name and requirements. When the
// same conversation holds a Vision & Scope document, its goals, scope and domains are used:
// goals are traced to components and out-of-scope items are excluded from the design.
#include <optional>
#include <string>
#include <vector>

#include "conversation_store.hpp"
#include "vision_document.hpp"

namespace clariad {

struct ArchitectureInput {
  std::string project_name;
  std::string requirements;
  std::optional<std::string> conversation_id;
};

inline constexpr const char* kArchitectureTool = "architecture_agent";

// Requirement items listed (and traced) in full; the rest are counted, not dropped silently.
inline constexpr std::size_t kMaxListedRequirements = 100;

GeneratedDocument build_architecture_document(const ArchitectureInput& input, const std::vector<ContextEntry>& context);

}  // namespace clariad
