// Incremental parser for a text/event-stream body (the SSE wire format): bytes go in as they
// arrive, complete events come out. Used by the Streamable HTTP client channel, whose answers
// may be an SSE stream of JSON-RPC messages.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcpref {

struct SseEvent {
  std::string event = "message";  // the "event:" field, "message" when absent
  std::string data;               // "data:" lines joined with "\n"
  std::string id;                 // the "id:" field of this event (empty when none)
};

class SseParser {
 public:
  using EventHandler = std::function<void(const SseEvent&)>;
  // A stream whose pending line or event grows past `max_bytes` is refused (SseTooLarge), so a
  // server that never ends a line cannot make us grow without bound.
  explicit SseParser(EventHandler on_event, std::size_t max_bytes = 4u * 1024u * 1024u);

  // Feeds the next chunk; calls the handler for every event the chunk completes. Lines end in
  // LF, CRLF or CR (a CR at a chunk's end waits for the next chunk to see whether LF follows).
  void feed(std::string_view chunk);
  // The "retry:" value in ms last seen, or -1.
  long retry_ms() const { return retry_ms_; }
  // The id of the last event (what a Last-Event-ID header would resume after).
  const std::string& last_event_id() const { return last_id_; }

 private:
  void line(std::string_view text);
  void dispatch();

  EventHandler on_event_;
  std::size_t max_bytes_;
  std::string pending_;  // an unfinished line
  bool after_cr_ = false;
  SseEvent current_;
  bool has_data_ = false;
  long retry_ms_ = -1;
  std::string last_id_;
};

class SseTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mcpref
