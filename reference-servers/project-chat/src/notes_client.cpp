#include "notes_client.hpp"

#include "mcpref/stdio_client_channel.hpp"

#include <fmt/format.h>

namespace project_chat {

using mcpref::Json;

namespace {

mcpref::ReconnectOptions reconnect_options(const ChatOptions& o) {
  mcpref::ReconnectOptions r;
  r.client_name = "project_chat";
  r.client_version = "1.0";
  r.protocol_version = "2024-11-05";
  // The requests project_chat makes (resources/list, resources/read, tools/list, tools/call,
  // ping) are the same in every published revision, so a server answering a later one is
  // still understood; an unknown version ends the connection.
  r.accepted_versions = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
  r.initialize_timeout = o.initialize_timeout;
  r.close_grace = o.close_grace;
  r.backoff = o.backoff;
  r.restart = o.restart;
  return r;
}

std::string error_line(const mcpref::ServerError& e) {
  std::string line = fmt::format("{} ({})", e.what(), e.code());
  if (e.data().is_object() && e.data().contains("uri") && e.data()["uri"].is_string())
    line += ": " + e.data()["uri"].get<std::string>();
  return line;
}

}  // namespace

NotesClient::NotesClient(ChatOptions options)
    : options_(std::move(options)),
      client_(
          [command = options_.server_command.empty() ? default_server_command() : options_.server_command] {
            mcpref::StdioClientOptions s;
            s.command = command;
            return std::make_unique<mcpref::StdioClientChannel>(s);
          },
          reconnect_options(options_)),
      cache_(options_.cache_ttl) {}

NotesClient::~NotesClient() { shutdown(); }

void NotesClient::shutdown() { client_.shutdown(); }

Json NotesClient::call(const std::string& method, const Json& params, std::chrono::milliseconds timeout) {
  try {
    return client_.call(method, params, timeout);
  } catch (const mcpref::ServerError& e) {
    throw RequestFailed(error_line(e));
  }
}

void NotesClient::require(const char* capability) {
  client_.connect();
  Json init = client_.initialize_result();
  const Json& caps = init.is_object() && init.contains("capabilities") ? init["capabilities"] : Json();
  if (!caps.is_object() || !caps.contains(capability) || caps[capability].is_null() || caps[capability] == false)
    throw RequestFailed(fmt::format("the server does not offer {} (not declared in its capabilities)", capability));
}

Json NotesClient::list_notes() {
  if (auto hit = cache_.get("list")) return *hit;
  require("resources");
  Json result = call("resources/list", Json::object(), options_.resource_timeout);
  cache_.put("list", result);
  return result;
}

Json NotesClient::read_note(const std::string& uri) {
  std::string key = "read " + uri;
  if (auto hit = cache_.get(key)) return *hit;
  require("resources");
  Json result = call("resources/read", Json{{"uri", uri}}, options_.resource_timeout);
  cache_.put(key, result);
  return result;
}

Json NotesClient::search(const std::string& query, std::optional<int> limit) {
  Json args = {{"query", query}};
  if (limit) args["limit"] = *limit;
  return call_tool("search_notes", args, false);
}

Json NotesClient::sync() {
  // Whether the pull worked or not, the server re-scanned its folder: what was cached may be
  // stale now.
  auto invalidate = [this] {
#ifndef PROJECT_CHAT_MUTANT_CACHE_NEVER_INVALIDATED
    cache_.clear();
#endif
  };
  try {
    Json result = call_tool("sync_repository", Json::object(), false);
    invalidate();
    return result;
  } catch (const RequestFailed&) {
    invalidate();
    throw;
  }
}

Json NotesClient::ping() { return call("ping", nullptr, options_.resource_timeout); }

Json NotesClient::list_tools() {
  require("tools");
  return call("tools/list", Json::object(), options_.tool_timeout);
}

Json NotesClient::call_tool(const std::string& name, const Json& arguments, bool with_progress,
                            std::optional<std::chrono::milliseconds> give_up_after) {
  require("tools");
  Json params = {{"name", name}, {"arguments", arguments.is_null() ? Json::object() : arguments}};
  if (with_progress) params["_meta"] = {{"progressToken", fmt::format("project_chat-{}", ++progress_counter_)}};
  Json result;
  try {
    result = give_up_after ? client_.call("tools/call", params, *give_up_after, false)
                           : client_.call("tools/call", params, options_.tool_timeout);
  } catch (const mcpref::ServerError& e) {
    throw RequestFailed(error_line(e));
  } catch (const mcpref::RequestTimeout& e) {
    throw RequestFailed(fmt::format("{} gave no answer within {} ms (cancelled)", name, give_up_after->count()));
  }
  if (result.is_object() && result.value("isError", false)) {
    std::string text;
    if (result.contains("content") && result["content"].is_array())
      for (const auto& c : result["content"])
        if (c.is_object() && c.value("type", "") == "text" && c.contains("text") && c["text"].is_string())
          text += (text.empty() ? "" : " ") + c["text"].get<std::string>();
    throw RequestFailed(text.empty() ? name + " failed" : text);
  }
  return result;
}

}  // namespace project_chat
