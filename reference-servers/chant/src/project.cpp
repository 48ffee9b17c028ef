#include "project.hpp"

#include "mcpref/atomic_file.hpp"
#include "spec_document.hpp"

#include <system_error>

namespace chant {

namespace fs = std::filesystem;

std::string ProjectPaths::display(const fs::path& p) const {
  fs::path rel = p.lexically_relative(root);
  if (rel.empty() || rel.native().rfind("..", 0) == 0) return p.string();
  return rel.string();
}

ProjectPaths project_paths(const fs::path& root) {
  ProjectPaths p;
  p.root = root;
  p.chant = root / ".chant";
  p.specs = p.chant / "specs";
  p.logs = p.chant / "logs";
  p.archive = p.chant / "archive";
  p.lock = p.chant / ".lock";
  p.config = p.chant / "config.md";
  return p;
}

std::optional<ProjectPaths> find_project(const fs::path& start, bool exact) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (ec) return std::nullopt;
  dir = dir.lexically_normal();
  for (;;) {
    if (fs::is_directory(dir / ".chant" / "specs", ec)) return project_paths(dir);
    if (exact) return std::nullopt;
    fs::path parent = dir.parent_path();
    if (parent == dir || parent.empty()) return std::nullopt;
    dir = parent;
  }
}

ProjectConfig load_config(const ProjectPaths& paths) {
  ProjectConfig cfg;
  try {
    std::string text = mcpref::read_file_limited(paths.config, 1024 * 1024);
    SpecDocument doc = SpecDocument::parse(text);
    if (auto t = doc.front_matter.scalar("default_type"); t && !t->empty()) cfg.default_type = *t;
  } catch (const std::exception&) {
  }
  return cfg;
}

}  // namespace chant
