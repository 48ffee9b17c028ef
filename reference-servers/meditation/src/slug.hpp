// Note slugs: the stable name in `meditation://note/<slug>`, made from the note's path below the
// notes folder. A slug names an index entry; it is never turned back into a path, which is what
// keeps URIs from reaching outside the folder.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace meditation {

inline constexpr std::string_view kUriPrefix = "meditation://note/";

// "Journal/Morning Meditation 2024-12-01.md" -> "journal/morning-meditation-2024-12-01":
// lower-case ASCII letters, digits and '-' per folder level, joined by '/'.
std::string slug_for(const std::filesystem::path& relative_path);

std::string uri_for(const std::string& slug);

// True when `path` names a note file (.md or .markdown, any case).
bool is_note_file(const std::filesystem::path& path);

}  // namespace meditation
