// Shared helpers for chant tests: a temporary project and direct tool calls.
#pragma once

#include "init_project.hpp"
#include "project.hpp"
#include "tools.hpp"

#include "mcpref/json.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace chant_test {

namespace fs = std::filesystem;
using mcpref::Json;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "chant-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// An initialised project in a fresh temporary directory.
class Project {
 public:
  Project() { chant::init_project(dir_.path(), chant::AgentSetup::None); }
  const fs::path& root() const { return dir_.path(); }
  chant::ProjectPaths paths() const { return chant::project_paths(root()); }
  fs::path spec_path(const std::string& id) const { return paths().specs / (id + ".md"); }

  void write_spec(const std::string& id, const std::string& text) const { write_text(spec_path(id), text); }

  // A spec with the given status, dependencies and body.
  void add_spec(const std::string& id, const std::string& title, const std::string& status,
                const std::string& body = "", const std::string& depends = "[]") const {
    write_spec(id, "---\ntitle: " + title + "\nstatus: " + status + "\ntype: code\ndepends_on: " +
                       depends + "\n---\n\n# " + title + "\n" + body);
  }

  // tools/call with the given tool and arguments; returns the CallToolResult.
  Json call(const std::string& tool, const Json& arguments = Json::object()) const {
    chant::ToolContext ctx;
    ctx.start_dir = root();
    ctx.exact_project = true;
    ctx.lock_timeout = std::chrono::milliseconds(5000);
    return chant::call_tool(ctx, Json{{"name", tool}, {"arguments", arguments}});
  }

 private:
  TempDir dir_;
};

inline bool is_error(const Json& result) { return result.value("isError", false); }
inline std::string text_of(const Json& result) {
  return result.at("content").at(0).at("text").get<std::string>();
}
// Parses the JSON carried in a successful tool result's text.
inline Json json_of(const Json& result) { return Json::parse(text_of(result)); }

}  // namespace chant_test
