// Routes JSON-RPC messages to handlers and turns handler outcomes into replies.
#pragma once

#include "mcpref/json.hpp"
#include "mcpref/jsonrpc.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace mcpref {

class Dispatcher {
 public:
  // Receives params (null when absent). Returns the `result`; throw rpc::RpcError for a
  // specific error reply. Any other exception becomes -32603 carrying its message.
  using RequestHandler = std::function<Json(const Json& params)>;
  using NotificationHandler = std::function<void(const Json& params)>;

  void on_request(std::string method, RequestHandler handler);
  void on_notification(std::string method, NotificationHandler handler);

  // Batches (a JSON array of messages) are refused with -32600 unless enabled: only the
  // 2025-03-26 protocol revision requires them.
  void set_batch_support(bool enabled) { batch_support_ = enabled; }

  // One line of input -> the line of output to send, if any. Blank lines yield nothing.
  std::optional<Json> handle_line(std::string_view line);
  // One parsed value (object or batch array) -> reply, if any.
  std::optional<Json> handle_value(const Json& value);
  // One classified message -> reply, if any (notifications and responses get none).
  std::optional<Json> handle_message(const rpc::Message& message);

 private:
  std::map<std::string, RequestHandler, std::less<>> requests_;
  std::map<std::string, NotificationHandler, std::less<>> notifications_;
  bool batch_support_ = false;
};

}  // namespace mcpref
