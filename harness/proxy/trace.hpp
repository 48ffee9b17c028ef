#pragma once
// The proxy's trace: one JSON object per line (JSONL) for every line that crossed the proxy, in the
// order the proxy saw them. `mcpspec proxy --record FILE` writes it; `mcpspec validate --trace FILE`
// reads it back and judges it exactly as the live proxy did. Format: docs/proxy.md.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace mcpspec::proxy {

// Which way a line went: client to server (the host's stdin to the server), server to client (the
// server's stdout to the host), or the server's stderr (passed through, never judged).
enum class Direction { ClientToServer, ServerToClient, Stderr };
const char* direction_name(Direction d);  // "c2s", "s2c", "stderr"

struct TraceEntry {
  double t_ms = 0;  // since the proxy started the server
  Direction dir = Direction::ClientToServer;
  std::string text;  // the line without its "\n" (over HTTP: the body, or one SSE event's data)
  // Over HTTP: {"method", "path"} of the request, or {"status", "content_type"} of the response,
  // the headers as sent ({"headers": {name: value}}, names lower-cased), "sse_id" for an SSE
  // event. Null over stdio.
  nlohmann::json http;
};

// An HTTP exchange without a message (a GET opening a stream, a DELETE, a 202 with no body): kept in
// the trace for its method, status and headers, never judged or replayed.
inline bool is_metadata_only(const TraceEntry& e) { return !e.http.is_null() && e.text.empty(); }

// Appends entries to a trace file, one flushed line each (a crash of the host or the proxy
// leaves every line seen so far readable). Safe to call from the forwarding threads at once.
class TraceWriter {
 public:
  // Throws std::runtime_error naming the path when the file cannot be created.
  explicit TraceWriter(const std::string& path);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void write(const TraceEntry& e);

 private:
  std::mutex mu_;
  std::FILE* file_ = nullptr;
};

// The JSONL line of one entry (no newline). Bytes that are not UTF-8 become U+FFFD.
std::string trace_line(const TraceEntry& e);

// Reads a whole trace. Two formats are read, told apart by the first entry:
//  - ours (docs/proxy.md): {"dir", "t_ms", "text", "http"?};
//  - mcp-trace-validator's event lines: {"seq", "direction": "client-to-server" |
//    "server-to-client", "transport", "kind", "payload"}; a "message" event's payload is the
//    JSON-RPC message, events of other kinds (lifecycle, transport facts) carry none and are
//    skipped. Its "seq" orders events but is no time: t_ms is 0.
// Throws std::runtime_error naming the file and line of the first entry that is not JSON, lacks a
// field or has a field of the wrong type or an unknown direction.
std::vector<TraceEntry> read_trace(const std::string& path);

}  // namespace mcpspec::proxy
