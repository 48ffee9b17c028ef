#include "cli_commands.hpp"

#include "spec_id.hpp"
#include "spec_json.hpp"
#include "spec_store.hpp"
#include "tool_error.hpp"

#include <fmt/format.h>

#include <istream>
#include <ostream>

namespace chant {

namespace fs = std::filesystem;

namespace {

std::optional<ProjectPaths> locate(const fs::path& project_dir, std::ostream& err) {
  auto project = project_dir.empty() ? find_project(fs::current_path(), false)
                                     : find_project(project_dir, true);
  if (!project) err << "chant: " << kNotInitialized << "\n";
  return project;
}

bool is_word(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string_view trim_space(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

int run_init(const fs::path& dir, std::optional<AgentSetup> agent, bool interactive,
             std::istream& in, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    err << "chant: " << dir.string() << " is not a directory\n";
    return 1;
  }
  // The document's wizard asks which agent to configure; without a terminal (or an answer)
  // nothing is asked and no agent file is written.
  if (!agent && interactive) {
    out << "Write .mcp.json so Claude can start `chant mcp`? [y/N] " << std::flush;
    std::string answer;
    std::getline(in, answer);
    answer = std::string(trim_space(answer));
    agent = (answer == "y" || answer == "Y" || answer == "yes" || answer == "claude")
                ? AgentSetup::Claude
                : AgentSetup::None;
  }
  try {
    for (const auto& line : init_project(dir, agent.value_or(AgentSetup::None))) out << line << "\n";
  } catch (const std::exception& e) {
    err << "chant: " << e.what() << "\n";
    return 1;
  }
  if (!agent || *agent == AgentSetup::None) {
    out << "No agent configured (run `chant init --agent claude` to write .mcp.json)\n";
  }
  return 0;
}

int run_add(const fs::path& project_dir, const AddCommand& command, std::ostream& out,
            std::ostream& err) {
  auto project = locate(project_dir, err);
  if (!project) return 1;
  try {
    SpecStore store(*project);
    std::string_view text = trim_space(command.description);
    if (text.empty()) throw ToolError("the description must not be empty");
    SpecStore::NewSpec request;
    std::size_t nl = text.find('\n');
    request.title = std::string(trim_space(text.substr(0, nl)));
    if (nl != std::string_view::npos) request.details = std::string(trim_space(text.substr(nl + 1)));
    request.type = command.type.value_or(load_config(*project).default_type);
    if (!is_word(request.type)) {
      throw ToolError(fmt::format("invalid --type '{}': use 1-64 letters, digits, '-' or '_'",
                                  printable(request.type)));
    }
    if (command.prompt) {
      if (!is_word(*command.prompt)) {
        throw ToolError(fmt::format("invalid --prompt '{}': use 1-64 letters, digits, '-' or '_'",
                                    printable(*command.prompt)));
      }
      request.prompt = command.prompt;
    }
    for (const auto& dep : command.depends_on) request.depends_on.push_back(store.resolve(dep));
    for (const auto& label : command.labels) {
      if (trim_space(label).empty() || label.find('\n') != std::string::npos) {
        throw ToolError(fmt::format("invalid --label '{}'", printable(label)));
      }
      request.labels.push_back(label);
    }
    out << store.create(request).id << "\n";
    return 0;
  } catch (const std::exception& e) {
    err << "chant: " << e.what() << "\n";
    return 1;
  }
}

int run_list(const fs::path& project_dir, const std::optional<std::string>& status,
             std::ostream& out, std::ostream& err) {
  auto project = locate(project_dir, err);
  if (!project) return 1;
  std::optional<StatusFilter> filter;
  if (status) {
    filter = parse_status_filter(*status);
    if (!filter) {
      err << "chant: unknown status '" << printable(*status) << "' (expected one of: "
          << kStatusFilters << ")\n";
      return 2;
    }
  }
  SpecStore store(*project);
  auto listing = store.load_all();
  Readiness readiness(listing.specs, store.archived_ids());
  std::size_t shown = 0;
  for (const auto& s : listing.specs) {
    bool keep = true;
    if (filter) {
      switch (*filter) {
        case StatusFilter::Ready: keep = readiness.ready(s); break;
        case StatusFilter::Blocked:
          keep = s.status == Status::Blocked ||
                 (s.status == Status::Pending && !readiness.unmet(s).empty());
          break;
        default: keep = to_string(s.status) == *status; break;
      }
    }
    if (!keep) continue;
    if (shown++ == 0) out << fmt::format("{:<22} {:<15} {:<10} {}\n", "ID", "STATUS", "TYPE", "TITLE");
    out << fmt::format("{:<22} {:<15} {:<10} {}\n", s.id, to_string(s.status), s.type,
                       s.title.value_or("(untitled)"));
  }
  if (shown == 0) out << "No specs\n";
  for (const auto& p : listing.problems) err << "chant: warning: " << p.file << ": " << p.message << "\n";
  return 0;
}

}  // namespace chant
