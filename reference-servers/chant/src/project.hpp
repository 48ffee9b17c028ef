// Where a chant project keeps its files, and how a project is found from a directory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace chant {

struct ProjectPaths {
  std::filesystem::path root;     // the directory holding .chant/
  std::filesystem::path chant;    // .chant/
  std::filesystem::path specs;    // .chant/specs/   <id>.md, active specs
  std::filesystem::path logs;     // .chant/logs/    <id>.log, execution logs
  std::filesystem::path archive;  // .chant/archive/ <id>.md, archived specs
  std::filesystem::path lock;     // .chant/.lock    exclusive lock for read-modify-write
  std::filesystem::path config;   // .chant/config.md

  // Path relative to the project root, for messages ("./.chant/specs/x.md" -> ".chant/specs/x.md").
  std::string display(const std::filesystem::path& p) const;
};

ProjectPaths project_paths(const std::filesystem::path& root);

// The nearest directory at or above `start` containing .chant/specs, like git finds .git.
// With `exact`, only `start` itself is considered.
std::optional<ProjectPaths> find_project(const std::filesystem::path& start, bool exact);

// The exact text chant tools report when no project is found.
inline constexpr const char* kNotInitialized = "Chant not initialized. Run `chant init` first.";

// Settings read from .chant/config.md front matter (all optional).
struct ProjectConfig {
  std::string default_type = "code";
};
// A missing or unreadable config gives the defaults: the config never blocks spec work.
ProjectConfig load_config(const ProjectPaths& paths);

}  // namespace chant
