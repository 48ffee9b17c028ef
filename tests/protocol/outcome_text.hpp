#pragma once
// Reading a validation outcome in tests: whether an issue at a pointer says something, and the
// whole outcome as text for a failure message.
#include "harness/protocol/schema_registry.hpp"

#include <string>

namespace mcpspec::test {

inline bool has_issue(const protocol::ValidationOutcome& o, const std::string& pointer, const std::string& fragment) {
  for (const auto& i : o.issues) {
    if (i.pointer == pointer && i.message.find(fragment) != std::string::npos) return true;
  }
  return false;
}

inline std::string dump(const protocol::ValidationOutcome& o) {
  std::string out = std::string(o.valid ? "valid" : "invalid") + " [" + o.definition + "]";
  for (const auto& i : o.issues) out += "\n  " + i.pointer + ": " + i.message;
  return out;
}

}  // namespace mcpspec::test
