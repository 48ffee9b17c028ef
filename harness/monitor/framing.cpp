#include "harness/monitor/framing.hpp"

namespace mcpspec::monitor {

namespace {
std::string_view trimmed(std::string_view text) {
  auto first = text.find_first_not_of(" \t\r");
  return first == std::string_view::npos ? std::string_view() : text.substr(first);
}
// nlohmann::json names this cause in its parse error; the reader, not us, decides what UTF-8 is.
bool is_not_utf8(std::string_view parse_error) { return parse_error.find("ill-formed UTF-8") != std::string_view::npos; }
}  // namespace

bool is_message_fragment(std::string_view text) {
  std::string_view t = trimmed(text);
  return !t.empty() && std::string_view("{}[]\"").find(t.front()) != std::string_view::npos;
}

Finding unparsable_frame(std::string_view text, protocol::Sender writer, std::string_view parse_error) {
  std::string_view trimmed = mcpspec::monitor::trimmed(text);
  const bool server = writer == protocol::Sender::Server;
  if (trimmed.empty())
    return {"framing", {"STDIO-02"},
            server ? "an empty line on stdout (messages are one per line)"
                   : "an empty line on the server's stdin (messages are one per line)"};
  // The parse error's text is not repeated: it quotes the bad bytes, and its column would make
  // every such line a finding of its own.
  if (is_not_utf8(parse_error))
    return {"framing", {server ? "STDIO-03" : "STDIO-04"},
            std::string("a line ") + (server ? "on stdout" : "to the server's stdin") +
                " holds bytes that are not UTF-8, so it is no JSON-RPC message"};
  if (is_message_fragment(trimmed))
    return {"framing", server ? std::vector<std::string>{"STDIO-02", "STDIO-03"} : std::vector<std::string>{"STDIO-02", "STDIO-04"},
            std::string("a line ") + (server ? "on stdout" : "to the server's stdin") +
                " is a fragment of JSON: a message spread over several lines (embedded newlines)"};
  if (server)
    return {"framing", {"STDIO-03"}, "a stdout line is not a JSON-RPC message (stdout is for protocol only)"};
  return {"framing", {"STDIO-04", "STDIO-02"},
          "the client wrote a line to the server's stdin that is not a JSON-RPC message"};
}

Finding unparsable_message(std::string_view place, std::vector<std::string> rules, std::string_view parse_error) {
  return {"framing", std::move(rules),
          std::string(place) + (is_not_utf8(parse_error) ? " holds bytes that are not UTF-8, so it is" : " is") + " no JSON-RPC message"};
}

std::vector<std::string> oversize_requirements(protocol::Sender writer) {
  // No requirement caps a server's message size; a line past mcpspec's limit cannot be judged,
  // so the harness reports it as the target failing to stay usable.
  if (writer == protocol::Sender::Server) return {"MCPSPEC-ALIVE"};
  return {"STDIO-04"};
}

}  // namespace mcpspec::monitor
