#pragma once
// The Clariad server: one input line in, zero or more output lines out. Owns the conversation
// store and the streaming operations. Reading input is the caller's job (main.cpp or a test),
// which keeps this class free of I/O and easy to drive from unit tests.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "conversation_store.hpp"
#include "jsonrpc_envelope.hpp"
#include "line_sink.hpp"
#include "operation_runner.hpp"

namespace clariad {

struct ServerConfig {
  std::size_t max_line_bytes = 4 * 1024 * 1024;
  std::size_t max_depth = 64;
  ConversationLimits conversations{};
  std::size_t max_operations = 8;
};

// MCP revisions the compatibility mode negotiates; the last one is offered to clients that
// ask for anything else.
inline constexpr std::string_view kMcpVersions[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
inline constexpr std::string_view kServerName = "clariad";
inline constexpr std::string_view kServerVersion = "1.0.0";

class Server {
 public:
  Server(LineSink& sink, ServerConfig config);

  void handle_line(std::string_view line);
  void handle_overlong_line(std::size_t length);

  // Lets every streaming operation finish its schedule (used at end of input).
  void finish_operations();
  // Stops streaming operations at once, without final responses.
  void cancel_operations();

  ConversationStore& conversations() { return store_; }
  OperationRunner& operations() { return runner_; }
  const ServerConfig& config() const { return config_; }

 private:
  // The result to send, or nullopt when the response is streamed later by the runner.
  std::optional<OJson> handle_request(const Message& msg);
  void handle_notification(const Message& msg);

  // Legacy dialect (the Clariad document).
  OJson list_tools(const Message& msg);
  std::optional<OJson> invoke_tool(const Message& msg);

  // MCP compatibility mode.
  OJson initialize(const Message& msg);
  OJson tools_list(const Message& msg);
  std::optional<OJson> tools_call(const Message& msg);

  void send(const OJson& message);
  bool annotations_allowed() const;

  LineSink& sink_;
  ServerConfig config_;
  ConversationStore store_;
  OperationRunner runner_;
  std::string negotiated_version_{kMcpVersions[std::size(kMcpVersions) - 1]};
};

}  // namespace clariad
