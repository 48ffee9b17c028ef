#include "commands.hpp"

#include "build_output.hpp"
#include "mcp_server.hpp"
#include "mutants.hpp"
#include "upstream_pool.hpp"

#include "mcpref/atomic_file.hpp"
#include "mcpref/serve.hpp"
#include "mcpref/stop_signals.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <thread>

namespace tamamo {

using mcpref::Json;

namespace {

std::filesystem::path base_dir(const SourceOptions& source) {
  return source.dir.empty() ? std::filesystem::current_path() : source.dir;
}

Rules rules_for(const Config& config) {
  return config.grouping.rules_file.empty() ? Rules{} : load_rules(config.grouping.rules_file);
}

// Discovery and grouping, with each server's outcome reported on `log`.
BuildResult discover_and_group(const Config& config, std::ostream& log) {
  Rules rules = rules_for(config);  // a bad rules file fails before any server is started
  BuildResult result;
  result.servers = discover(config);
  std::vector<DiscoveredTool> tools;
  for (const ServerDiscovery& s : result.servers) {
    if (s.ok) {
      log << fmt::format("tamamo-x-mcp: {}: {} tool(s)\n", s.server, s.tools.size());
    } else {
      log << fmt::format("tamamo-x-mcp: {}: FAILED: {}\n", s.server, s.error);
    }
    for (const std::string& w : s.warnings) log << fmt::format("tamamo-x-mcp: {}: {}\n", s.server, w);
    tools.insert(tools.end(), s.tools.begin(), s.tools.end());
  }
  result.groups = group_tools(tools, rules, config.grouping.schema_similarity);
  return result;
}

bool any_server_ok(const BuildResult& result) {
  for (const ServerDiscovery& s : result.servers) {
    if (s.ok) return true;
  }
  return false;
}

bool has_server_options(const SourceOptions& source) {
  return !source.servers.empty() || !source.server_argvs.empty() || !source.server_urls.empty();
}

}  // namespace

Config resolve_config(const SourceOptions& source) {
  Config config;
  if (has_server_options(source)) {
    for (const auto& s : source.servers) config.servers.push_back(upstream_from_shell_option(s));
    for (const auto& s : source.server_argvs) config.servers.push_back(upstream_from_argv_option(s));
    for (const auto& s : source.server_urls) config.servers.push_back(upstream_from_url_option(s));
    for (std::size_t i = 0; i < config.servers.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (config.servers[i].name == config.servers[j].name) {
          throw ConfigError("server name '" + config.servers[i].name + "' is given twice");
        }
      }
    }
  } else {
    config = load_config(source.config_file.empty() ? base_dir(source) / kConfigFileName
                                                    : std::filesystem::path(source.config_file));
  }
  if (!source.rules_file.empty()) config.grouping.rules_file = source.rules_file;
  if (source.timeout_ms) config.discovery_timeout = std::chrono::milliseconds(*source.timeout_ms);
  if (source.call_timeout_ms) config.call_timeout = std::chrono::milliseconds(*source.call_timeout_ms);
  return config;
}

int run_build(const BuildOptions& options, std::ostream& out, std::ostream& err) {
  try {
    Config config = resolve_config(options.source);
    if (config.servers.empty()) {
      err << "tamamo-x-mcp: no MCP servers are configured (add them to mcpServers, or use --server)\n";
      return 1;
    }
    BuildResult result = discover_and_group(config, err);
    bool all_ok = std::all_of(result.servers.begin(), result.servers.end(), [](const ServerDiscovery& s) { return s.ok; });
    if (mutant("any-failure-fails-build") && !all_ok) return 1;  // fault: one failure discards the others
    if (!any_server_ok(result)) {
      err << "tamamo-x-mcp: no server could be discovered; nothing written\n";
      return 1;
    }
    std::string text = mcpref::to_pretty(build_result_to_json(result)) + "\n";
    if (options.print) {
      out << text << std::flush;
    } else {
      std::filesystem::path target = options.output.empty() ? base_dir(options.source) / kGroupsFile
                                                            : std::filesystem::path(options.output);
      std::filesystem::create_directories(target.parent_path().empty() ? "." : target.parent_path());
      mcpref::write_file_atomic(target, text);
      out << fmt::format("Wrote {} sub-agent(s) to {}:\n", result.groups.size(), target.string());
      for (const Group& g : result.groups) {
        out << fmt::format("  {} ({} tool(s))\n", g.name, g.tools.size());
        for (const GroupedTool& t : g.tools) out << fmt::format("    {}/{}: {}\n", t.tool.server, t.tool.name, t.reason);
      }
    }
    return 0;
  } catch (const std::exception& e) {
    err << "tamamo-x-mcp: " << e.what() << "\n";
    return 1;
  }
}

int run_mcp(const McpOptions& options, std::ostream& err) {
  auto transport = mcpref::parse_transport(options.transport);
  if (!transport) {
    err << "tamamo-x-mcp: --transport '" << options.transport << "' is not stdio, http or websocket\n";
    return 2;
  }
  Config config;
  std::vector<Group> groups;
  try {
    config = resolve_config(options.source);
    if (has_server_options(options.source)) {
      groups = discover_and_group(config, err).groups;  // ad hoc: build in memory, write nothing
    } else {
      groups = load_groups(options.groups_file.empty() ? base_dir(options.source) / kGroupsFile
                                                       : std::filesystem::path(options.groups_file));
    }
  } catch (const std::exception& e) {
    err << "tamamo-x-mcp: " << e.what() << "\n";
    return 1;
  }
  UpstreamPool pool(config.servers, config.discovery_timeout);
  for (const Group& g : groups) {
    for (const GroupedTool& t : g.tools) {
      if (!pool.knows(t.tool.server)) {
        err << fmt::format("tamamo-x-mcp: sub-agent {} uses server '{}', which the configuration no longer has "
                           "(run `tamamo-x-mcp build` again)\n", g.name, t.tool.server);
        return 1;
      }
    }
  }
  SubAgents agents(std::move(groups), pool, config.call_timeout);
  mcpref::Dispatcher dispatcher;
  register_mcp_methods(dispatcher, agents);

  mcpref::ServeOptions serve;
  serve.transport = *transport;
  serve.network.host = options.host;
  serve.network.path = options.path;
  serve.network.protocol_versions = supported_protocol_versions();
  int port = 3000;
  if (options.port) {
    port = *options.port;
  } else if (const char* env = std::getenv("PORT")) {
    try {
      port = std::stoi(env);
    } catch (const std::exception&) {
      err << "tamamo-x-mcp: $PORT='" << env << "' is not a port number\n";
      return 2;
    }
  }
  serve.network.port = port;
  std::string scheme = *transport == mcpref::Transport::WebSocket ? "ws" : "http";
  serve.network.on_listening = [&err, &options, scheme](int bound) {
    err << fmt::format("tamamo-x-mcp: serving on {}://{}:{}{}\n", scheme, options.host, bound, options.path) << std::flush;
  };

  int status = 0;
  if (*transport == mcpref::Transport::Stdio) {
    // On SIGTERM/SIGINT/SIGHUP the original servers are stopped before we go.
    mcpref::StopSignals signals;
    std::thread watcher([&pool, &signals] {
      if (signals.wait() != 0) {
        pool.stop_all();
        std::_Exit(0);
      }
    });
    status = mcpref::serve(dispatcher, serve);
    signals.cancel();
    watcher.join();
  } else {
    status = mcpref::serve(dispatcher, serve);
  }
  pool.stop_all();
  return status;
}

}  // namespace tamamo
