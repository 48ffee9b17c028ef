// tamamo-x-mcp: discovers the tools of configured MCP servers, groups them into sub-agents, and
// serves each sub-agent as one MCP tool (stdio, Streamable HTTP or WebSocket).
#include "commands.hpp"
#include "init_command.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

namespace {

void add_source_options(CLI::App* command, tamamo::SourceOptions& source) {
  command->add_option("--config", source.config_file, "Configuration file (default: DIR/tamamo-x.config.json)");
  command->add_option("--server", source.servers,
                      "NAME=COMMAND: a stdio server run by /bin/sh -c, instead of the configuration's; repeatable");
  command->add_option("--server-argv", source.server_argvs,
                      "NAME=[\"prog\",\"arg\",...]: a stdio server given as a JSON argv; repeatable");
  command->add_option("--server-url", source.server_urls,
                      "NAME=URL: an http:// (Streamable HTTP) or ws:// (WebSocket) server; repeatable");
  command->add_option("--rules", source.rules_file, "Grouping rules file (JSON), instead of grouping.rulesFile");
  command->add_option("--timeout-ms", source.timeout_ms, "Per-server discovery and start-up timeout")
      ->check(CLI::Range(1, 3600000));
  command->add_option("--call-timeout-ms", source.call_timeout_ms, "Per underlying tool call timeout")
      ->check(CLI::Range(1, 3600000));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tamamo-x-mcp: groups the tools of MCP servers into sub-agents and serves them over MCP"};
  app.set_version_flag("--version", std::string("tamamo-x-mcp ") + tamamo::kVersion);
  app.require_subcommand(1);
  app.fallthrough();
  std::string dir;
  app.add_option("-C,--dir", dir, "Work in DIR instead of the current folder");

  auto* init = app.add_subcommand("init", "Write tamamo-x.config.json here, importing the servers of .mcp.json");
  bool force = false;
  init->add_flag("--force", force, "Replace an existing configuration");

  auto* build = app.add_subcommand("build", "Discover every server's tools and group them into sub-agents");
  tamamo::BuildOptions build_options;
  add_source_options(build, build_options.source);
  build->add_option("-o,--output", build_options.output, "Where to write the groups (default: DIR/.tamamo-x/groups.json)");
  build->add_flag("--print", build_options.print, "Print the groups as JSON on stdout instead of writing a file");

  auto* mcp = app.add_subcommand("mcp", "Serve the sub-agents as MCP tools");
  tamamo::McpOptions mcp_options;
  add_source_options(mcp, mcp_options.source);
  mcp->add_option("--groups", mcp_options.groups_file, "Groups written by build (default: DIR/.tamamo-x/groups.json)");
  mcp->add_option("-t,--transport", mcp_options.transport, "stdio (default), http or websocket");
  mcp->add_option("--host", mcp_options.host, "Address to listen on (default 127.0.0.1)");
  mcp->add_option("-p,--port", mcp_options.port, "Port (default: $PORT, else 3000)")->check(CLI::Range(0, 65535));
  mcp->add_option("--path", mcp_options.path, "Endpoint path (default /mcp)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  std::filesystem::path base = dir;
  if (*init) return tamamo::run_init(base.empty() ? std::filesystem::current_path() : base, force, std::cout, std::cerr);
  if (*build) {
    build_options.source.dir = base;
    return tamamo::run_build(build_options, std::cout, std::cerr);
  }
  if (*mcp) {
    mcp_options.source.dir = base;
    return tamamo::run_mcp(mcp_options, std::cerr);
  }
  return 2;
}
