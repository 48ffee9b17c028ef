#include "mcpref/dispatcher.hpp"

#include <fmt/format.h>

namespace mcpref {

void Dispatcher::on_request(std::string method, RequestHandler handler) {
  requests_[std::move(method)] = std::move(handler);
}

void Dispatcher::on_notification(std::string method, NotificationHandler handler) {
  notifications_[std::move(method)] = std::move(handler);
}

std::optional<Json> Dispatcher::handle_line(std::string_view line) {
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) return std::nullopt;
  rpc::ParsedText parsed = rpc::parse_json_text(line);
  if (!parsed.ok) return parsed.error_reply;
  return handle_value(parsed.value);
}

std::optional<Json> Dispatcher::handle_value(const Json& value) {
  if (!value.is_array()) {
    auto classified = rpc::classify(value);
    if (auto* reply = std::get_if<Json>(&classified)) return *reply;
    return handle_message(std::get<rpc::Message>(classified));
  }
  if (!batch_support_) {
    return rpc::make_error(nullptr, rpc::kInvalidRequest,
                           "Invalid Request: batch arrays are not supported");
  }
  if (value.empty()) {
    return rpc::make_error(nullptr, rpc::kInvalidRequest, "Invalid Request: empty batch");
  }
  Json replies = Json::array();
  for (const Json& element : value) {
    auto classified = rpc::classify(element);
    if (auto* reply = std::get_if<Json>(&classified)) {
      replies.push_back(*reply);
      continue;
    }
    if (auto reply = handle_message(std::get<rpc::Message>(classified))) replies.push_back(*reply);
  }
  // A batch of only notifications is answered with nothing at all.
  if (replies.empty()) return std::nullopt;
  return replies;
}

std::optional<Json> Dispatcher::handle_message(const rpc::Message& message) {
  using Kind = rpc::Message::Kind;
  if (message.kind == Kind::Response) return std::nullopt;  // we never send requests

  if (message.kind == Kind::Notification) {
    auto it = notifications_.find(message.method);
    if (it == notifications_.end()) return std::nullopt;
    // A notification cannot be answered, so a failing handler is contained here.
    try {
      it->second(message.params);
    } catch (...) {
    }
    return std::nullopt;
  }

  auto it = requests_.find(message.method);
  if (it == requests_.end()) {
    return rpc::make_error(message.id, rpc::kMethodNotFound,
                           fmt::format("Method not found: {}", message.method));
  }
  try {
    return rpc::make_result(message.id, it->second(message.params));
  } catch (const rpc::RpcError& e) {
    return rpc::make_error(message.id, e.code(), e.what(), e.data());
  } catch (const std::exception& e) {
    return rpc::make_error(message.id, rpc::kInternalError, e.what());
  } catch (...) {
    return rpc::make_error(message.id, rpc::kInternalError, "Internal error");
  }
}

}  // namespace mcpref
