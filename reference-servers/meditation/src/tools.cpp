// tools/list and tools/call: search_notes and sync_repository.
#include "git_pull.hpp"
#include "server.hpp"

#include "mcpref/jsonrpc.hpp"
#include "mcpref/tool_result.hpp"

#include <fmt/format.h>

#include <iostream>

namespace meditation {

using mcpref::Json;
using mcpref::rpc::RpcError;

namespace {

constexpr std::int64_t kDefaultLimit = 10;
constexpr std::int64_t kMaxLimit = 100;
constexpr std::size_t kMaxQueryBytes = 1000;
constexpr std::size_t kMaxNamesShown = 20;

Json tools_list() {
  Json search = {
      {"name", "search_notes"},
      {"description",
       "Search meditation notes: case-insensitive text match over titles and bodies; title matches first"},
      {"inputSchema",
       {{"type", "object"},
        {"properties",
         {{"query", {{"type", "string"}, {"description", "Text to look for (case-insensitive)"}}},
          {"limit",
           {{"type", "integer"}, {"minimum", 1}, {"maximum", kMaxLimit}, {"description", "Most notes to list (default 10)"}}}}},
        {"required", {"query"}}}},
      {"annotations", {{"readOnlyHint", true}}}};
  Json sync = {{"name", "sync_repository"},
               {"description",
                "Sync repository and update index: git pull --ff-only when the notes folder is a git repository, "
                "then re-scan the folder and report what changed"},
               {"inputSchema", {{"type", "object"}, {"properties", Json::object()}}},
               {"annotations", {{"readOnlyHint", false}, {"destructiveHint", false}, {"idempotentHint", true}}}};
  return Json{{"tools", Json::array({search, sync})}};
}

Json search_notes(const NoteLibrary& library, const Json& args) {
  if (!args.contains("query")) return mcpref::tool_failure("Missing required parameter: query");
  if (!args["query"].is_string()) return mcpref::tool_failure("Invalid query: must be a string");
  std::string query = args["query"].get<std::string>();
  if (query.empty()) return mcpref::tool_failure("Invalid query: must not be empty");
  if (query.size() > kMaxQueryBytes)
    return mcpref::tool_failure(fmt::format("Invalid query: longer than {} bytes", kMaxQueryBytes));
  std::int64_t limit = kDefaultLimit;
  if (args.contains("limit")) {
    const Json& l = args["limit"];
    if (!l.is_number_integer() || l.get<std::int64_t>() < 1 || l.get<std::int64_t>() > kMaxLimit)
      return mcpref::tool_failure(fmt::format("Invalid limit: must be an integer from 1 to {}", kMaxLimit));
    limit = l.get<std::int64_t>();
  }
  auto index = library.current();
  auto found = index->search(query, static_cast<std::size_t>(limit));
  std::string text = fmt::format("Found {} note{} matching '{}'", found.total, found.total == 1 ? "" : "s", query);
  text += found.total == 0 ? "." : ":\n";
  for (std::size_t i = 0; i < found.hits.size(); ++i)
    text += fmt::format("\n{}. {} ({})", i + 1, found.hits[i]->title, found.hits[i]->uri);
  if (found.total > found.hits.size())
    text += fmt::format("\n\n(showing the first {}; a higher limit lists more)", found.hits.size());
  return mcpref::tool_success(text);
}

std::string name_list(const char* label, const std::vector<std::string>& slugs) {
  if (slugs.empty()) return "";
  std::string out = fmt::format("\n{}: ", label);
  for (std::size_t i = 0; i < slugs.size() && i < kMaxNamesShown; ++i) out += (i ? ", " : "") + slugs[i];
  if (slugs.size() > kMaxNamesShown) out += fmt::format(" and {} more", slugs.size() - kMaxNamesShown);
  return out;
}

Json sync_repository(NoteLibrary& library, const ServerConfig& config) {
  PullOutcome pull = git_pull(library.root(), config.git_deadline);
  IndexDiff d;
  try {
    d = library.rescan();
  } catch (const std::exception& e) {
    return mcpref::tool_failure(std::string("Sync failed: ") + e.what() + " (the previous index is kept)");
  }
  auto index = library.current();
  for (const auto& s : index->skipped()) std::cerr << "meditation-mcp: skipped " << s << "\n";
  std::string text = fmt::format("Synced: {} added, {} changed, {} removed; {} notes indexed.", d.added.size(),
                                 d.changed.size(), d.removed.size(), index->notes().size());
  text += name_list("Added", d.added) + name_list("Changed", d.changed) + name_list("Removed", d.removed);
  if (!index->skipped().empty()) text += fmt::format("\nSkipped {} file(s) (listed on the server's stderr).", index->skipped().size());
  text += "\n" + (pull.is_repository ? pull.summary : "Not a git repository: the folder was re-scanned only.");
  if (pull.is_repository && !pull.ok) return mcpref::tool_failure(text);
  return mcpref::tool_success(text);
}

Json call_tool(NoteLibrary& library, const ServerConfig& config, const Json& params) {
  if (!params.is_object()) throw RpcError(mcpref::rpc::kInvalidParams, "Invalid params: tools/call needs params");
  if (!params.contains("name") || !params["name"].is_string())
    throw RpcError(mcpref::rpc::kInvalidParams, "Invalid params: missing tool name");
  std::string name = params["name"].get<std::string>();
  Json args = params.contains("arguments") ? params["arguments"] : Json::object();
  if (args.is_null()) args = Json::object();
  if (!args.is_object()) throw RpcError(mcpref::rpc::kInvalidParams, "Invalid params: arguments must be an object");
  if (name == "search_notes") return search_notes(library, args);
  if (name == "sync_repository") return sync_repository(library, config);
  throw RpcError(mcpref::rpc::kInvalidParams, "Unknown tool: " + name);
}

}  // namespace

void register_tool_methods(mcpref::Dispatcher& dispatcher, NoteLibrary& library, const ServerConfig& config) {
  dispatcher.on_request("tools/list", [](const Json& params) {
    refuse_cursor(params);
    return tools_list();
  });
  dispatcher.on_request("tools/call",
                        [&library, config](const Json& params) { return call_tool(library, config, params); });
}

}  // namespace meditation
