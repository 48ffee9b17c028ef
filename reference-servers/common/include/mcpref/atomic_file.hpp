// Crash-safe file replacement and creation: a reader (or a process killed half-way) only ever
// sees the old content or the new content, never a mix or a truncated file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcpref {

// Failure of a file operation; the message names the path and the system error.
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Test seam: called with the fully written, fsynced temporary file just before it is moved into
// place. Throwing from it aborts the operation the same way a crash or an I/O error would.
using BeforeCommitHook = std::function<void(const std::filesystem::path& temp_file)>;

// Writes `data` to a temporary file in the target's directory, fsyncs it, renames it over
// `target` and fsyncs the directory. An existing target keeps its permission bits. On failure
// the temporary file is removed and `target` is untouched.
void write_file_atomic(const std::filesystem::path& target, std::string_view data,
                       const BeforeCommitHook& before_commit = {});

// Like write_file_atomic but never replaces: returns false (and leaves everything as it was)
// when `target` already exists.
bool create_file_atomic(const std::filesystem::path& target, std::string_view data,
                        const BeforeCommitHook& before_commit = {});

// Moves a file within one file system durably (rename, then fsync of both directories).
// Refuses (FileError) to replace an existing destination.
void move_file_durable(const std::filesystem::path& from, const std::filesystem::path& to);

void fsync_directory(const std::filesystem::path& dir);

// Reads a whole regular file, refusing files larger than `max_bytes` and symbolic links.
std::string read_file_limited(const std::filesystem::path& path, std::size_t max_bytes);

// Temporary files created here are named ".<target name>.tmp-<pid>-<n>"; directory scans use
// this to skip them.
bool is_temp_file_name(std::string_view file_name);

}  // namespace mcpref
