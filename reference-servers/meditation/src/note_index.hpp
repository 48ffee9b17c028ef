// The index of a notes folder: one immutable snapshot per scan. A rescan builds a whole new
// snapshot and only then replaces the old one (NoteLibrary), so a reader holds either the old
// index or the new one, never one half built.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace meditation {

struct ScanLimits {
  std::uintmax_t max_note_bytes = 1u << 20;  // larger files are skipped (and said so)
  std::size_t max_notes = 100000;
  // The index keeps every note's text in memory for search: past this total, further notes are
  // skipped (and said so) rather than letting a huge folder exhaust memory.
  std::uintmax_t max_total_bytes = 512u << 20;
  int max_depth = 16;  // folder levels below the notes folder
};

struct Note {
  std::string slug;
  std::string uri;
  std::string title;
  std::string description;
  std::filesystem::path relative_path;
  std::uintmax_t size = 0;
  std::size_t content_hash = 0;
  std::string folded;  // title, newline, text: case-folded, what search looks through
};

class NoteIndex {
 public:
  // Reads every note below `root` (hidden files and folders, symlinks and over-limit files are
  // left out, each with a line in skipped()). Throws std::runtime_error when `root` cannot be read.
  static std::shared_ptr<const NoteIndex> scan(const std::filesystem::path& root, const ScanLimits& limits);

  const std::vector<Note>& notes() const { return notes_; }  // sorted by slug
  const Note* find_uri(std::string_view uri) const;
  const std::vector<std::string>& skipped() const { return skipped_; }

  struct SearchResult {
    std::size_t total = 0;            // every matching note
    std::vector<const Note*> hits;    // the first `limit`: title matches first, then by slug
  };
  SearchResult search(std::string_view query, std::size_t limit) const;

 private:
  std::vector<Note> notes_;
  std::map<std::string, std::size_t, std::less<>> by_slug_;
  std::vector<std::string> skipped_;
};

struct IndexDiff {
  std::vector<std::string> added, changed, removed;  // slugs
};
IndexDiff diff(const NoteIndex& before, const NoteIndex& after);

// A note listed in the index is no longer readable (deleted or replaced since the scan).
class NoteGone : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The notes folder and its current index.
class NoteLibrary {
 public:
  // Throws std::runtime_error naming the folder when it is missing or not a readable folder.
  NoteLibrary(const std::filesystem::path& root, ScanLimits limits = {});

  std::shared_ptr<const NoteIndex> current() const;
  // Builds a new index from the folder and swaps it in; returns what changed. On failure the
  // current index stays and the error propagates.
  IndexDiff rescan();
  // The note's text as it is on disk now, refused when its real path is outside the folder.
  std::string read(const Note& note) const;
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;  // canonical
  ScanLimits limits_;
  mutable std::mutex mutex_;    // guards index_ (the pointer, not the snapshot: that never changes)
  std::shared_ptr<const NoteIndex> index_;
};

}  // namespace meditation
