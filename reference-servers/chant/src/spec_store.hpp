// All access to the spec files of one project. Reads need no lock (every write is an atomic
// rename, so a reader sees a whole old or a whole new file); every read-modify-write holds the
// project's exclusive lock (.chant/.lock) from reading to renaming, so concurrent chant
// processes never lose each other's updates.
#pragma once

#include "project.hpp"
#include "spec.hpp"

#include "mcpref/file_lock.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chant {

inline constexpr std::size_t kMaxSpecBytes = 8u * 1024u * 1024u;

class SpecStore {
 public:
  explicit SpecStore(ProjectPaths paths,
                     std::chrono::milliseconds lock_timeout = std::chrono::seconds(10));

  const ProjectPaths& paths() const { return paths_; }

  // A file under .chant/specs that could not be used, reported by its project-relative path.
  struct Problem {
    std::string file;
    std::string message;
  };
  struct Listing {
    std::vector<Spec> specs;  // sorted by id
    std::vector<Problem> problems;
  };

  // Every readable active spec; unreadable files are listed as problems, never fatal.
  Listing load_all() const;
  // Names of active spec files (valid ids, regular files), readable or not.
  std::vector<std::string> active_ids() const;
  std::vector<std::string> archived_ids() const;

  // Full id for a full or partial id. Throws ToolError: invalid id, not found, ambiguous.
  std::string resolve(std::string_view query) const;
  // Throws ToolError naming the file when it cannot be read or parsed.
  Spec load(const std::string& id) const;
  // Raw text of a spec file (for diagnosis of files that do not parse).
  std::string read_text(const std::string& id) const;

  std::filesystem::path spec_file(const std::string& id) const;
  std::filesystem::path archived_file(const std::string& id) const;
  std::filesystem::path log_file(const std::string& id) const;

  // Under the lock: resolve, load, mutate (which may throw ToolError to refuse), stamp
  // `updated`, write atomically. Returns the spec as written.
  Spec update(std::string_view query, const std::function<void(Spec&)>& mutate);

  struct NewSpec {
    std::string title;
    std::string details;  // body text after the title heading (may be empty)
    std::string type = kDefaultType;
    std::optional<std::string> prompt;
    std::vector<std::string> depends_on;
    std::vector<std::string> labels;
  };
  // Under the lock: picks the next id for today and creates the file without ever replacing
  // one. Returns the new spec.
  Spec create(const NewSpec& spec);

  // Under the lock: resolve, load, `check` (may throw ToolError), move to .chant/archive/.
  // Returns the archived file's path.
  std::filesystem::path archive(std::string_view query, const std::function<void(const Spec&)>& check);

  // Throws ToolError when the lock cannot be had in time.
  mcpref::FileLock lock() const;

 private:
  std::vector<std::string> names_in(const std::filesystem::path& dir,
                                    std::vector<Problem>* problems) const;

  ProjectPaths paths_;
  std::chrono::milliseconds lock_timeout_;
};

// Edits that keep a spec's fields and its front matter in step.
void set_status(Spec& spec, Status status, const std::string& now);
void append_spec_output(Spec& spec, std::string_view output);

}  // namespace chant
