#include "harness/transport/transport.hpp"

namespace mcpspec::transport {

const char* transport_name(TransportKind k) {
  switch (k) {
    case TransportKind::Stdio: return "stdio";
    case TransportKind::Http: return "http";
    case TransportKind::Sse: return "sse";
    case TransportKind::Ws: return "ws";
  }
  return "stdio";
}

Event carried_frame(std::string text, std::string place, std::vector<std::string> rules) {
  Event e{Event::Type::Frame, std::move(text), {}};
  e.place = std::move(place);
  e.rules = std::move(rules);
  return e;
}

std::optional<TransportKind> parse_transport(std::string_view name) {
  for (auto k : {TransportKind::Stdio, TransportKind::Http, TransportKind::Sse, TransportKind::Ws})
    if (name == transport_name(k)) return k;
  return std::nullopt;
}

}  // namespace mcpspec::transport
