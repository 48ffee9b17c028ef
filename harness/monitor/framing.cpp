#include "harness/monitor/framing.hpp"

namespace mcpspec::monitor {

Finding unparsable_frame(std::string_view text, protocol::Sender writer) {
  auto first = text.find_first_not_of(" \t\r");
  std::string_view trimmed = first == std::string_view::npos ? std::string_view() : text.substr(first);
  const bool server = writer == protocol::Sender::Server;
  if (trimmed.empty())
    return {"framing", {"STDIO-02"},
            server ? "an empty line on stdout (messages are one per line)"
                   : "an empty line on the server's stdin (messages are one per line)"};
  bool fragment = std::string_view("{}[]\"").find(trimmed.front()) != std::string_view::npos;
  if (fragment)
    return {"framing", server ? std::vector<std::string>{"STDIO-02", "STDIO-03"} : std::vector<std::string>{"STDIO-02", "STDIO-04"},
            std::string("a line ") + (server ? "on stdout" : "to the server's stdin") +
                " is a fragment of JSON: a message spread over several lines (embedded newlines)"};
  if (server)
    return {"framing", {"STDIO-03"}, "a stdout line is not a JSON-RPC message (stdout is for protocol only)"};
  return {"framing", {"STDIO-04", "STDIO-02"},
          "the client wrote a line to the server's stdin that is not a JSON-RPC message"};
}

std::vector<std::string> oversize_requirements(protocol::Sender writer) {
  // No requirement caps a server's message size; a line past mcpspec's limit cannot be judged,
  // so the harness reports it as the target failing to stay usable.
  if (writer == protocol::Sender::Server) return {"MCPSPEC-ALIVE"};
  return {"STDIO-04"};
}

}  // namespace mcpspec::monitor
