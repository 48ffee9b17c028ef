// An expected, user-facing failure: reported to MCP clients as an `isError: true` tool result
// and to CLI users on stderr. Unexpected failures (I/O errors) use other exception types.
#pragma once

#include <stdexcept>

namespace chant {

class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace chant
