#include "harness/cli/paths.hpp"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace mcpspec::cli {

std::string binary_dir() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path().string() : exe.parent_path().string();
}

std::string home_dir() {
  if (const char* h = std::getenv("MCPSPEC_HOME"); h && *h) return h;
  std::error_code ec;
  // An installed mcpspec (bin/mcpspec, share/mcpspec/scenarios) uses its own data, even when the
  // source tree it was built from is still there.
  const fs::path installed = fs::path(binary_dir()).parent_path() / "share" / "mcpspec";
  if (fs::is_directory(installed / "scenarios", ec)) return installed.string();
  if (fs::is_directory(fs::path(MCPSPEC_SOURCE_DIR) / "scenarios", ec)) return MCPSPEC_SOURCE_DIR;
  return fs::path(binary_dir()).parent_path().string();
}

std::string absolutize_command(const std::string& command) {
  auto start = command.find_first_not_of(" \t");
  if (start == std::string::npos) return command;
  auto end = command.find_first_of(" \t", start);
  std::string first = command.substr(start, end == std::string::npos ? std::string::npos : end - start);
  // Only plain relative paths: leave quoted words, variables and bare program names (PATH lookup) alone.
  if (first.find('/') == std::string::npos || first[0] == '/' || first.find_first_of("'\"$`\\") != std::string::npos)
    return command;
  std::error_code ec;
  if (!fs::exists(first, ec)) return command;
  return command.substr(0, start) + fs::absolute(first).lexically_normal().string() +
         (end == std::string::npos ? "" : command.substr(end));
}

}  // namespace mcpspec::cli
