// Appending MCP-supplied output to a spec body.
#pragma once

#include <string>
#include <string_view>

namespace chant {

// The text goes at the very end of the body, verbatim (no timestamp, no truncation, no code
// fence), separated from what precedes it by one blank line and ending with a newline. It is
// preceded by a "## Output" heading unless the body's last level-1/2 heading (outside code
// blocks) already is "## Output", so repeated appends collect under one heading and a section
// added after it by hand is never written into.
std::string append_output(std::string_view body, std::string_view output);

}  // namespace chant
