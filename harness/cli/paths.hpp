#pragma once
// Where mcpspec finds its own data (the bundled scenarios and the default targets) at run time.
#include <string>

namespace mcpspec::cli {

// The folder holding scenarios/: $MCPSPEC_HOME, else an installation's <prefix>/share/mcpspec
// (the binary in <prefix>/bin), else the source tree this binary was built from, else the folder
// above the binary.
std::string home_dir();
// The folder of the running mcpspec binary (where the bundled reference servers are built too).
std::string binary_dir();
// Makes the first word of a shell command absolute when it is a relative path ("build/x --y"),
// so the command still works when a scenario runs it in a temporary working directory.
std::string absolutize_command(const std::string& command);

}  // namespace mcpspec::cli
