// The one folder a workflow call may touch. Its path comes from the client, so it is checked
// before anything is read: absolute, no "." or ".." parts, no NUL. Files inside have fixed names
// (spec.md, plan.md, tasks.md), so nothing is ever read or written outside it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace speckit {

// 1 MiB per document: far more than any spec, and a bound on what a call holds in memory.
inline constexpr std::size_t kMaxDocumentBytes = 1024 * 1024;

// Why a spec_directory argument is refused (becomes -32602), or nullopt when it is usable.
std::optional<std::string> spec_directory_problem(const std::string& raw);

class SpecDirectory {
 public:
  // `path` must have passed spec_directory_problem().
  explicit SpecDirectory(std::filesystem::path path) : path_(std::move(path)) {}

  const std::filesystem::path& path() const { return path_; }
  bool exists() const;
  // The document's text, or nullopt when it does not exist. Throws mcpref::FileError for a
  // symlink, a file over kMaxDocumentBytes, or a read failure.
  std::optional<std::string> read(const std::string& name) const;
  // Creates the folder (and its parents) when missing, then replaces the document atomically.
  void write(const std::string& name, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

}  // namespace speckit
