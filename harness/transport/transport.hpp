#pragma once
// What the scenario runner needs from a connection to the target, whatever carries it.
// stdio is the first implementation; HTTP and WebSocket transports implement the same interface.
#include "harness/util/clock.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::transport {

class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ExitStatus {
  int code = -1;    // exit code, or -1 when killed by a signal
  int signal = 0;   // the signal that ended it, 0 when it exited
  std::string text() const;  // "exit code 0" / "killed by SIGTERM"
};

// How a target is reached. Parsed once where a name comes in (CLI, targets.json, scenario files).
enum class TransportKind { Stdio, Http, Sse, Ws };
const char* transport_name(TransportKind k);  // "stdio", "http" (Streamable HTTP), "sse", "ws"
std::optional<TransportKind> parse_transport(std::string_view name);

struct Event {
  enum class Type {
    Frame,     // one complete inbound message text (not yet parsed)
    Stderr,    // one line the target wrote to stderr
    Oversize,  // a frame exceeded the maximum message size and was discarded
    Closed,    // the target closed its output (stdout EOF / connection closed)
    Exited,    // the target process ended (status set)
    Timeout,   // nothing happened before the deadline
    Settled,   // what can still arrive has narrowed (see Transport::reach): a wake-up, no content
    // HTTP transports: the server refused a POST with an error status (the Streamable HTTP way
    // of saying "cannot accept this input"). text is the response body; `send` says which
    // send()/send_raw() it answers; `message` says whether the body is to be read as a JSON-RPC
    // message (an answer carrying the request's id, or an id-less error to a message that had
    // no plain id), the way a 2xx body would be.
    Rejected,
  };
  Type type = Type::Timeout;
  std::string text;
  std::optional<ExitStatus> status;
  std::uint64_t send = 0;  // Rejected: the refused send, counted from 1 since start()
  int http_status = 0;     // Rejected: the HTTP status. Closed by a WebSocket close frame: its status
  bool message = false;    // Rejected: text is also a message (see above)
  // Rejected: the body is a JSON-RPC error without the id of the request it refuses, although that
  // id was readable (an id-less explanation of an HTTP-level refusal, or a lost id: the era decides).
  bool id_lost = false;
  // Frame: where a message-framed carrier (an HTTP body, an SSE event, a WebSocket message) got the
  // text, and the rules such a text breaks when it is no JSON-RPC message. Line-framed carriers
  // (stdio, a Unix socket) leave both empty: the framing monitor knows their rules (STDIO-02/03/04).
  std::string place{};
  std::vector<std::string> rules{};
};

// A Frame event from a message-framed carrier (see Event::place).
Event carried_frame(std::string text, std::string place, std::vector<std::string> rules);

// What can still arrive from the target, as far as the transport can prove it. Over Streamable
// HTTP a response travels only on the POST stream of its request (or a resumption of it), never on
// the standalone GET stream, so once those streams have ended no answer can come; once the GET
// stream is gone too, nothing can. Transports that cannot know (stdio, WebSocket, legacy SSE, where
// one channel carries everything) always say Anything, and every wait runs to its deadline.
enum class Reach {
  Anything,   // any message may still arrive
  NoAnswers,  // no response to anything sent so far can arrive; server requests/notifications may
  Nothing,    // no message of any kind can arrive until something new is sent
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::string name() const = 0;  // "stdio", ...
  // Starts the target / connects. Throws TransportError with a readable reason.
  virtual void start() = 0;
  // Writes one frame (framing added by the transport). Throws TransportError when the target is
  // gone or the deadline passes (a target that never reads its input cannot block the harness).
  virtual void send(const std::string& frame, Deadline deadline) = 0;
  // Writes bytes exactly as given (for deliberately malformed input).
  virtual void send_raw(const std::string& bytes, Deadline deadline) = 0;
  // The next event, or Type::Timeout at the deadline.
  virtual Event receive(Deadline deadline) = 0;
  // Closes the direction towards the target (stdio: its stdin).
  virtual void close_input() = 0;
  virtual void signal(int sig) = 0;
  // Exit status if the target has ended (never blocks).
  virtual std::optional<ExitStatus> exit_status() = 0;
  // Ends everything: close input, grace period, SIGTERM, SIGKILL to the process group, reap.
  // Idempotent; never throws; bounded in time.
  virtual void stop() = 0;
  // A line for the wire log describing what was started ("spawned pid 123 in /tmp/x").
  virtual std::string describe() const = 0;
  // The scenario's "transport_options", before start(); a transport without options ignores them
  // (docs/scenario-format.md lists which transport reads which).
  virtual void configure(const nlohmann::json& /*options*/) {}
  // See Reach. A transport that narrows it pushes a Settled event, so a waiting receive() wakes up.
  // Messages that arrived before the narrowing are already queued when this says so.
  virtual Reach reach() const { return Reach::Anything; }
  // Rules the peer broke that only the transport sees (headers, content types), not yet taken:
  // objects {"monitor", "requirements", "message"}, or null when there are none (violations.hpp).
  // The conversation reports them as findings.
  virtual nlohmann::json take_violations() { return nullptr; }
};

}  // namespace mcpspec::transport
