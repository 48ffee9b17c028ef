// project_chat's view of its server: the notes (resources) and the two tools, with the
// contract's timeouts, a TTL cache for the list and for each note, restart and retry with
// backoff (mcpref::ReconnectingClient). The server is started on first use and kept.
#pragma once

#include "chat_options.hpp"
#include "ttl_cache.hpp"

#include "mcpref/reconnecting_client.hpp"

#include <atomic>
#include <memory>
#include <string>

namespace project_chat {

// The server answered, but not with what was asked for: a JSON-RPC error, a tool error result,
// or a capability it does not offer. what() is one line for the user.
class RequestFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class NotesClient {
 public:
  explicit NotesClient(ChatOptions options);
  ~NotesClient();  // shutdown()

  // Starts the server and initializes now, unless that is done (otherwise the first request does it).
  void connect() { client_.connect(); }
  mcpref::Json list_notes();                      // resources/list result (cached)
  mcpref::Json read_note(const std::string& uri); // resources/read result (cached per URI)
  mcpref::Json search(const std::string& query, std::optional<int> limit);  // tools/call result
  mcpref::Json sync();                            // tools/call result; empties the cache
  mcpref::Json ping();
  mcpref::Json list_tools();
  // Any tool. `give_up_after`: the caller's own limit, with no retry (cancelled when it passes).
  mcpref::Json call_tool(const std::string& name, const mcpref::Json& arguments, bool with_progress,
                         std::optional<std::chrono::milliseconds> give_up_after = std::nullopt);
  // Ends the session in order: the server's stdin closed, wait, then SIGTERM, then SIGKILL.
  void shutdown();

  std::size_t cached_entries() const { return cache_.size(); }
  void set_event_sink(mcpref::ReconnectingClient::EventSink sink) { client_.set_event_sink(std::move(sink)); }

 private:
  // Connects when needed and checks that the server declared `capability`.
  void require(const char* capability);
  mcpref::Json call(const std::string& method, const mcpref::Json& params, std::chrono::milliseconds timeout);

  ChatOptions options_;
  mcpref::ReconnectingClient client_;
  TtlCache<mcpref::Json> cache_;
  std::atomic<long long> progress_counter_{0};
};

}  // namespace project_chat
