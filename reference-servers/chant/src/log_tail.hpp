// Reading the end of a possibly large log file without loading all of it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace chant {

// Output of a single chant_log call is capped at this many bytes of log text.
inline constexpr std::size_t kMaxLogBytes = 4u * 1024u * 1024u;

struct LogTail {
  std::string text;       // the last lines, joined by '\n', no trailing newline
  std::size_t lines = 0;  // how many lines `text` holds
  bool truncated = false; // the requested lines exceeded kMaxLogBytes: older ones dropped
};

// Last `max_lines` lines of a regular file (symbolic links are refused). A final line without
// newline counts as a line. Throws mcpref::FileError.
LogTail read_log_tail(const std::filesystem::path& file, std::size_t max_lines,
                      std::size_t max_bytes = kMaxLogBytes);

}  // namespace chant
