#include "server.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <new>

#include "text_utils.hpp"

namespace clariad {

Server::Server(LineSink& sink, ServerConfig config)
    : sink_(sink), config_(config), store_(config.conversations), runner_(sink, config.max_operations) {}

void Server::send(const OJson& message) { send_message(sink_, message); }

void Server::finish_operations() { runner_.wait_all(); }
void Server::cancel_operations() { runner_.cancel_all(); }

void Server::handle_overlong_line(std::size_t length) {
  send(error_response(nullptr, RpcError(ErrorCode::InvalidRequest,
                                        fmt::format("the line has {} bytes, more than the {}-byte limit; it was "
                                                    "discarded without being parsed",
                                                    length, config_.max_line_bytes))));
}

void Server::handle_line(std::string_view line) {
  OJson reply_id = nullptr;
  try {
    Envelope envelope = read_envelope(line, config_.max_depth);
    if (std::holds_alternative<BlankLine>(envelope)) return;
    if (auto* rejection = std::get_if<Rejection>(&envelope)) {
      send(error_response(rejection->id, rejection->error));
      return;
    }
    const Message& msg = std::get<Message>(envelope);
    switch (msg.kind) {
      case Message::Kind::Reply:
        return;  // Clariad never sends requests, so there is nothing a reply could answer
      case Message::Kind::Notification:
        // Whatever happens here, a notification never gets a response.
        try {
          handle_notification(msg);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "clariad: notification %s failed: %s\n", shorten(msg.method, 100).c_str(), e.what());
        }
        return;
      case Message::Kind::Request:
        break;
    }
    reply_id = to_ordered(msg.id);
    if (runner_.is_running(id_key(msg.id))) {
      throw RpcError(ErrorCode::InvalidRequest,
                     fmt::format("id {} belongs to a long_running_operation that is still streaming; use a new id",
                                 shorten(id_key(msg.id), 100)),
                     "/id");
    }
    std::optional<OJson> result = handle_request(msg);
    if (!result) return;
    OJson response = OJson::object();
    response["jsonrpc"] = "2.0";
    response["id"] = reply_id;
    response["result"] = std::move(*result);
    send(response);
  } catch (const RpcError& e) {
    send(error_response(reply_id, e));
  } catch (const std::bad_alloc&) {
    send(error_response(reply_id, RpcError(ErrorCode::InternalError, "out of memory while handling the request")));
  } catch (const std::exception& e) {
    send(error_response(reply_id, RpcError(ErrorCode::InternalError, fmt::format("unexpected failure: {}", e.what()))));
  }
}

std::optional<OJson> Server::handle_request(const Message& msg) {
  if (msg.method == "list_tools") return list_tools(msg);
  if (msg.method == "invoke_tool") return invoke_tool(msg);
  if (msg.method == "initialize") return initialize(msg);
  if (msg.method == "tools/list") return tools_list(msg);
  if (msg.method == "tools/call") return tools_call(msg);
  if (msg.method == "ping") return OJson::object();
  throw RpcError(ErrorCode::MethodNotFound,
                 fmt::format("unknown method \"{}\"; Clariad answers list_tools and invoke_tool, and initialize, ping, "
                             "tools/list and tools/call for MCP clients",
                             shorten(msg.method, 100)),
                 "/method");
}

void Server::handle_notification(const Message& msg) {
  // JSON-RPC forbids replying to notifications, even unknown ones, so everything else is ignored.
  if (msg.method != "notifications/cancelled" || !msg.params.is_object()) return;
  const auto id = msg.params.find("requestId");
  if (id != msg.params.end() && (id->is_string() || id->is_number())) runner_.cancel(id_key(*id));
}

bool Server::annotations_allowed() const { return negotiated_version_ >= "2025-03-26"; }

}  // namespace clariad
