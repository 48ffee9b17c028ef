#include "init_project.hpp"

#include "front_matter.hpp"
#include "project.hpp"
#include "tool_error.hpp"

#include "mcpref/atomic_file.hpp"
#include "mcpref/json.hpp"

#include <fmt/format.h>

namespace chant {

namespace fs = std::filesystem;
using mcpref::Json;

const char* const kClaudeMcpJson = R"({
  "mcpServers": {
    "chant": {
      "type": "stdio",
      "command": "chant",
      "args": ["mcp"]
    }
  }
}
)";

namespace {

void ensure_dir(const fs::path& dir, const ProjectPaths& paths, std::vector<std::string>& log) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) {
    log.push_back(fmt::format("exists   {}/", paths.display(dir)));
    return;
  }
  if (fs::exists(dir, ec)) {
    throw ToolError(fmt::format("{} exists but is not a directory", paths.display(dir)));
  }
  fs::create_directories(dir, ec);
  if (ec) throw ToolError(fmt::format("cannot create {}: {}", paths.display(dir), ec.message()));
  log.push_back(fmt::format("created  {}/", paths.display(dir)));
}

void ensure_file(const fs::path& file, const std::string& text, const ProjectPaths& paths,
                 std::vector<std::string>& log) {
  if (mcpref::create_file_atomic(file, text)) {
    log.push_back(fmt::format("created  {}", paths.display(file)));
  } else {
    log.push_back(fmt::format("exists   {}", paths.display(file)));
  }
}

std::string default_config(const fs::path& root) {
  std::string name = fs::absolute(root).lexically_normal().filename().string();
  if (name.empty()) name = "project";
  return fmt::format(
      "---\n"
      "# Read by chant; edit freely. Unknown keys are ignored.\n"
      "project_name: {}\n"
      "# Type given to specs created by `chant add` (without --type) and by the chant_add tool.\n"
      "default_type: code\n"
      "---\n"
      "\n"
      "# Chant project\n"
      "\n"
      "Specs live in `.chant/specs/` (one Markdown file per spec), execution logs in\n"
      "`.chant/logs/`, archived specs in `.chant/archive/`.\n",
      render_scalar(name));
}

void setup_claude(const ProjectPaths& paths, std::vector<std::string>& log) {
  fs::path file = paths.root / ".mcp.json";
  if (mcpref::create_file_atomic(file, kClaudeMcpJson)) {
    log.push_back("created  .mcp.json (Claude starts `chant mcp` from it)");
    return;
  }
  std::string text = mcpref::read_file_limited(file, 4 * 1024 * 1024);
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw ToolError(fmt::format(".mcp.json is not valid JSON, so it was left unchanged ({})", e.what()));
  }
  if (!doc.is_object()) throw ToolError(".mcp.json is not a JSON object, so it was left unchanged");
  Json& servers = doc["mcpServers"];
  if (servers.is_null()) servers = Json::object();
  if (!servers.is_object()) {
    throw ToolError(".mcp.json has an \"mcpServers\" that is not an object, so it was left unchanged");
  }
  if (servers.contains("chant")) {
    log.push_back("exists   .mcp.json already has a \"chant\" server (left unchanged)");
    return;
  }
  servers["chant"] = Json::parse(kClaudeMcpJson)["mcpServers"]["chant"];
  mcpref::write_file_atomic(file, doc.dump(2) + "\n");
  log.push_back("updated  .mcp.json (added the \"chant\" server, kept the others)");
}

}  // namespace

std::vector<std::string> init_project(const fs::path& root, AgentSetup agent) {
  ProjectPaths paths = project_paths(root);
  std::vector<std::string> log;
  ensure_dir(paths.chant, paths, log);
  ensure_dir(paths.specs, paths, log);
  ensure_dir(paths.logs, paths, log);
  ensure_dir(paths.archive, paths, log);
  ensure_file(paths.config, default_config(root), paths, log);
  ensure_file(paths.chant / ".gitignore", "# chant's lock file; never commit it\n.lock\n", paths, log);
  if (agent == AgentSetup::Claude) setup_claude(paths, log);
  return log;
}

}  // namespace chant
