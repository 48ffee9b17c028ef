// chant: specs kept as Markdown files under .chant/, served to AI agents over MCP (stdio).
#include "cli_commands.hpp"
#include "mcp_server.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <unistd.h>

int main(int argc, char** argv) {
  CLI::App app{"chant: specs as Markdown files under .chant/, served to AI agents over MCP"};
  app.set_version_flag("--version", std::string("chant ") + chant::kServerVersion);
  app.require_subcommand(1);
  app.fallthrough();
  std::string project;
  app.add_option("-C,--project", project,
                 "Use the project in DIR (default: the nearest directory at or above the current one "
                 "that holds .chant/specs)");

  auto* init = app.add_subcommand("init", "Create .chant/ here (or in --project DIR); safe to re-run");
  std::string agent;
  init->add_option("--agent", agent, "Agent to configure: claude (writes .mcp.json) or none")
      ->check(CLI::IsMember({"claude", "none"}));

  auto* add = app.add_subcommand("add", "Create a spec and print its id");
  std::vector<std::string> words;
  chant::AddCommand add_command;
  add->add_option("description", words, "What the spec is about (first line becomes the title)")
      ->required();
  add->add_option("--type", add_command.type, "Spec type (default: default_type from .chant/config.md, else code)");
  add->add_option("--prompt", add_command.prompt, "Prompt template name to record");
  add->add_option("--depends-on", add_command.depends_on, "Id (full or partial) of a spec this one depends on; repeatable");
  add->add_option("--label", add_command.labels, "Label; repeatable");

  auto* list = app.add_subcommand("list", "List specs");
  std::optional<std::string> status;
  list->add_option("--status", status, "Only specs with this status (or ready / blocked)");

  auto* mcp = app.add_subcommand("mcp", "Serve MCP over stdio (JSON-RPC, one message per line)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  std::filesystem::path project_dir = project;
  if (*init) {
    std::optional<chant::AgentSetup> choice;
    if (agent == "claude") choice = chant::AgentSetup::Claude;
    if (agent == "none") choice = chant::AgentSetup::None;
    bool interactive = ::isatty(0) && ::isatty(1);
    return chant::run_init(project_dir.empty() ? std::filesystem::current_path() : project_dir,
                           choice, interactive, std::cin, std::cout, std::cerr);
  }
  if (*add) {
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (i) add_command.description += ' ';
      add_command.description += words[i];
    }
    return chant::run_add(project_dir, add_command, std::cout, std::cerr);
  }
  if (*list) return chant::run_list(project_dir, status, std::cout, std::cerr);
  if (*mcp) {
    chant::ToolContext context;
    context.start_dir = project_dir.empty() ? std::filesystem::current_path() : project_dir;
    context.exact_project = !project_dir.empty();
    return chant::serve_mcp_stdio(context);
  }
  return 2;
}
