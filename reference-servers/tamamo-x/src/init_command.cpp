#include "init_command.hpp"

#include "config.hpp"

#include "mcpref/atomic_file.hpp"

#include <fmt/format.h>

#include <ostream>

namespace tamamo {

using mcpref::Json;

namespace {

// The servers of .mcp.json that tamamo can reach; each one it cannot (an SSE-only server, a
// broken entry) is skipped with a warning naming it, so one odd entry does not block init.
std::vector<UpstreamConfig> import_mcp_json(const std::filesystem::path& file, std::ostream& err) {
  Json document = read_json_file(file, 4u << 20, "");
  auto servers = document.find("mcpServers");
  if (servers == document.end() || !servers->is_object()) {
    throw ConfigError(file.string() + ": 'mcpServers' must be an object (name -> server)");
  }
  std::vector<UpstreamConfig> imported;
  for (const auto& [name, entry] : servers->items()) {
    try {
      imported.push_back(parse_upstream(name, entry, file.string() + ": /mcpServers/" + name));
    } catch (const ConfigError& e) {
      err << "tamamo-x-mcp: skipping a server of .mcp.json: " << e.what() << "\n";
    }
  }
  return imported;
}

}  // namespace

int run_init(const std::filesystem::path& dir, bool force, std::ostream& out, std::ostream& err) {
  std::filesystem::path target = dir / kConfigFileName;
  std::error_code ec;
  if (std::filesystem::exists(target, ec) && !force) {
    err << "tamamo-x-mcp: " << target.string() << " already exists (use --force to replace it)\n";
    return 1;
  }
  Config config;
  std::filesystem::path mcp_json = dir / ".mcp.json";
  try {
    if (std::filesystem::exists(mcp_json, ec)) config.servers = import_mcp_json(mcp_json, err);
    mcpref::write_file_atomic(target, mcpref::to_pretty(config_to_json(config)) + "\n");
  } catch (const std::exception& e) {
    err << "tamamo-x-mcp: " << e.what() << "\n";
    return 1;
  }
  out << fmt::format("Wrote {} with {} server(s){}.\n", target.string(), config.servers.size(),
                     std::filesystem::exists(mcp_json, ec) ? " imported from .mcp.json" : "");
  for (const UpstreamConfig& up : config.servers) out << "  " << up.name << " (" << transport_name(up.transport) << ")\n";
  out << (config.servers.empty() ? "Next: add servers under mcpServers, then run tamamo-x-mcp build\n"
                                  : "Next: tamamo-x-mcp build\n");
  return 0;
}

}  // namespace tamamo
