// A client's connection to one MCP server, whatever carries it: a child process over stdio, a
// Streamable HTTP endpoint or a WebSocket. The reference clients (project_chat, spec-tui,
// tamamo-x-mcp) program against this interface, so one client works over every transport and each
// transport is written once, in its own file.
#pragma once

#include "mcpref/json.hpp"

#include <chrono>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>

namespace mcpref {

// The server did not answer a request within its deadline. `id` is the request's id, so the
// caller can tell the server to stop working on it (notifications/cancelled or a dialect's own).
class RequestTimeout : public std::runtime_error {
 public:
  RequestTimeout(const std::string& what, Json id) : std::runtime_error(what), id_(std::move(id)) {}
  const Json& id() const { return id_; }

 private:
  Json id_;
};

// The server answered a request with a JSON-RPC error.
class ServerError : public std::runtime_error {
 public:
  ServerError(int code, const std::string& message, Json data = nullptr)
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}
  int code() const { return code_; }
  const Json& data() const { return data_; }

 private:
  int code_;
  Json data_;
};

// The connection could not be made, or is gone (the process exited, the socket closed, the
// endpoint refused). what() says which, in words a user can act on.
class ChannelClosed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ClientChannel {
 public:
  // Called on the channel's reader thread: keep them short, never call request() from them.
  using NotificationHandler = std::function<void(const std::string& method, const Json& params)>;
  // Answers a server-to-client request (ping, sampling, roots): return the result, or throw
  // mcpref::rpc::RpcError for an error reply. Without a handler such requests get -32601.
  using RequestHandler = std::function<Json(const std::string& method, const Json& params)>;

  virtual ~ClientChannel() = default;

  // Makes the connection (starts the process, connects). Throws ChannelClosed with the reason.
  virtual void open(std::chrono::milliseconds timeout) = 0;
  // Sends a request and waits for its response until `timeout`. Returns the result; throws
  // RequestTimeout, ServerError or ChannelClosed. Safe to call from several threads at once.
  virtual Json request(const std::string& method, const Json& params, std::chrono::milliseconds timeout) = 0;
  // Sends a notification (no answer). Throws ChannelClosed when the connection is gone.
  virtual void notify(const std::string& method, const Json& params) = 0;
  // The handlers are kept here, for every transport alike (see deliver_notification and
  // answer_request below).
  void on_notification(NotificationHandler handler) {
    std::lock_guard lock(handlers_mutex_);
    notification_handler_ = std::move(handler);
  }
  void on_request(RequestHandler handler) {
    std::lock_guard lock(handlers_mutex_);
    request_handler_ = std::move(handler);
  }
  virtual bool is_open() const = 0;
  // Ends the connection in order, within `grace` for each stage (stdio: close stdin, wait, then
  // SIGTERM, then SIGKILL to the process group; HTTP: DELETE the session; WebSocket: close frame).
  // Never throws; safe to call twice.
  virtual void close(std::chrono::milliseconds grace) = 0;

  // Observes each request's id just before it is written, on the thread that called request():
  // a caller waiting for an answer on one thread can then cancel that request by id from another
  // (spec-tui's cancel key sends the document's $/cancelRequest). Channels call announce_sent().
  using SentHandler = std::function<void(const std::string& method, const Json& id)>;
  void on_request_sent(SentHandler handler) {
    std::lock_guard lock(sent_mutex_);
    sent_handler_ = std::move(handler);
  }

 protected:
  // For a channel's reader: hands a notification to the handler (a handler's failure is the
  // client's business; the connection carries on).
  void deliver_notification(const std::string& method, const Json& params);
  // For a channel's reader: the reply to a server-to-client request (answer_server_request).
  Json answer_request(const Json& id, const std::string& method, const Json& params);

  void announce_sent(const std::string& method, const Json& id) {
    SentHandler handler;
    {
      std::lock_guard lock(sent_mutex_);
      handler = sent_handler_;
    }
    if (handler) handler(method, id);
  }

 private:
  std::mutex sent_mutex_;
  SentHandler sent_handler_;
  std::mutex handlers_mutex_;
  NotificationHandler notification_handler_;
  RequestHandler request_handler_;
};

// Shared by every channel: the result of a JSON-RPC response, or ServerError for an error
// response (a code that is not an integer reads as -32603, a missing message is said so).
Json result_or_throw(const Json& response);
// The reply to a server-to-client request through `handler`: its result, the error of an
// RpcError it throws, -32603 for any other exception, -32601 when there is no handler.
Json answer_server_request(const ClientChannel::RequestHandler& handler, const Json& id, const std::string& method,
                           const Json& params);

}  // namespace mcpref
