#pragma once
// Incremental parser for text/event-stream bodies (the SSE wire format). Bytes arrive in arbitrary
// pieces from the network; complete events come out. Bounded: a line or event bigger than the limit
// is reported once as oversize and skipped, so a hostile server cannot grow memory without end.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::transport::http {

struct SseEvent {
  std::string event;               // the "event:" field; empty means the default type "message"
  std::string data;                // "data:" lines joined with '\n'
  std::optional<std::string> id;   // present when this event carried an "id:" field
  std::optional<long long> retry;  // a valid "retry:" field (milliseconds)
  bool has_data = false;           // at least one "data:" line (a priming event has an id and no data)
  bool oversize = false;           // the event exceeded the size bound; data was discarded
  std::string type() const { return event.empty() ? "message" : event; }
};

// One `message` event carrying `data` (with `id:` when `id` is not empty), as a server writes it.
// Every line of `data` becomes a `data:` line, so text with newlines still stays one event.
std::string sse_message_event(const std::string& data, const std::string& id = "");

class SseParser {
 public:
  explicit SseParser(std::size_t max_event_bytes = 16 * 1024 * 1024) : max_(max_event_bytes) {}
  // Feeds bytes; complete events are appended to `out`.
  void feed(std::string_view bytes, std::vector<SseEvent>& out);
  // End of stream: an unterminated event is dropped, as the SSE rules say.
  void finish() { line_.clear(); reset_event(); }
  // The id the stream last set (what a client would send as Last-Event-ID).
  const std::string& last_event_id() const { return last_id_; }

 private:
  void on_line(std::string_view line, std::vector<SseEvent>& out);
  void reset_event();

  std::size_t max_;
  std::string line_;
  bool after_cr_ = false;    // a CR ended the previous line: a following LF belongs to it
  bool started_ = false;     // the optional byte-order mark is only skipped at the very start
  bool skipping_ = false;    // inside an oversize event: ignore lines until its blank line
  SseEvent cur_;
  bool cur_fields_ = false;  // some field of the current event was seen
  std::size_t cur_bytes_ = 0;
  std::string last_id_;
};

}  // namespace mcpspec::transport::http
