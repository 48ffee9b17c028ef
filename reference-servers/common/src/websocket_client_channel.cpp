#include "mcpref/websocket_client_channel.hpp"

#include "mcpref/jsonrpc.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <fmt/format.h>

#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>

namespace mcpref {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

WebSocketUrl parse_websocket_url(const std::string& url) {
  const std::string scheme = "ws://";
  if (url.rfind(scheme, 0) != 0) {
    throw std::invalid_argument(fmt::format("'{}' is not a ws:// URL (wss is not supported)", url));
  }
  std::string rest = url.substr(scheme.size());
  auto slash = rest.find('/');
  std::string authority = slash == std::string::npos ? rest : rest.substr(0, slash);
  WebSocketUrl out;
  out.target = slash == std::string::npos ? "/" : rest.substr(slash);
  auto colon = authority.rfind(':');
  if (authority.empty() || colon == 0) throw std::invalid_argument(fmt::format("'{}' names no host", url));
  if (colon == std::string::npos || authority.back() == ']') {
    out.host = authority;
    out.port = "80";
  } else {
    out.host = authority.substr(0, colon);
    out.port = authority.substr(colon + 1);
    if (out.port.empty() || out.port.find_first_not_of("0123456789") != std::string::npos) {
      throw std::invalid_argument(fmt::format("'{}' has no valid port", url));
    }
  }
  if (out.host.size() > 2 && out.host.front() == '[') out.host = out.host.substr(1, out.host.size() - 2);
  return out;
}

struct WebSocketClientChannel::Impl : std::enable_shared_from_this<Impl> {
  struct Pending {
    bool done = false;
    Json response;
  };

  WebSocketClientOptions options;
  asio::io_context io;
  // Keeps io.run() going between messages: without it the io thread ends as soon as no
  // operation is queued, and a frame posted later would never be written.
  asio::executor_work_guard<asio::io_context::executor_type> keep_running = asio::make_work_guard(io);
  websocket::stream<beast::tcp_stream> ws{io};
  std::thread io_thread;
  beast::flat_buffer read_buffer;
  std::deque<std::string> outbox;  // io thread only: frames waiting to be written

  mutable std::mutex mutex;
  std::condition_variable changed;
  std::map<std::string, std::shared_ptr<Pending>> pending;  // by id as JSON text
  long long next_id = 1;
  bool open = false;
  std::string closed_reason;
  WebSocketClientChannel* owner = nullptr;  // its handlers; the io thread ends in close()

  explicit Impl(WebSocketClientOptions o) : options(std::move(o)) {}

  void mark_closed(const std::string& reason) {
    std::lock_guard lock(mutex);
    if (!open && !closed_reason.empty()) return;
    open = false;
    closed_reason = reason;
    for (auto& [id, p] : pending) p->done = true;  // empty response: the waiter sees the reason
    changed.notify_all();
  }

  // io thread: queue a frame and write the queue in order (Beast allows one write at a time).
  void send_frame(std::string text) {
    outbox.push_back(std::move(text));
    if (outbox.size() == 1) write_next();
  }
  void write_next() {
    ws.text(true);
    ws.async_write(asio::buffer(outbox.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->mark_closed("write failed: " + ec.message());
      self->outbox.pop_front();
      if (!self->outbox.empty()) self->write_next();
    });
  }
  void post_frame(const Json& message) {
    asio::post(io, [self = shared_from_this(), text = to_line(message)]() mutable {
      self->send_frame(std::move(text));
    });
  }

  void read_next() {
    ws.async_read(read_buffer, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        std::string why = ec == websocket::error::closed ? "the server closed the WebSocket"
                                                          : "the WebSocket connection broke: " + ec.message();
        return self->mark_closed(why);
      }
      std::string text = beast::buffers_to_string(self->read_buffer.data());
      self->read_buffer.consume(self->read_buffer.size());
      self->handle_text(text);
      self->read_next();
    });
  }

  void handle_text(const std::string& text) {
    rpc::ParsedText parsed = rpc::parse_json_text(text);
    if (!parsed.ok || !parsed.value.is_object()) return;  // not ours to answer: counted as noise
    const Json& msg = parsed.value;
    if (msg.contains("method")) {
      std::string method = msg["method"].is_string() ? msg["method"].get<std::string>() : "";
      Json params = msg.value("params", Json());
      if (!msg.contains("id")) {
        owner->deliver_notification(method, params);
        return;
      }
      send_frame(to_line(owner->answer_request(msg["id"], method, params)));
      return;
    }
    std::lock_guard lock(mutex);
    auto it = pending.find(msg.value("id", Json()).dump());
    if (it == pending.end()) return;  // a late answer to a request that timed out
    it->second->done = true;
    it->second->response = msg;
    pending.erase(it);
    changed.notify_all();
  }

};

WebSocketClientChannel::WebSocketClientChannel(WebSocketClientOptions options)
    : impl_(std::make_shared<Impl>(std::move(options))) {
  impl_->owner = this;
}

WebSocketClientChannel::~WebSocketClientChannel() { close(std::chrono::milliseconds(500)); }

void WebSocketClientChannel::open(std::chrono::milliseconds timeout) {
  Impl& impl = *impl_;
  WebSocketUrl url;
  try {
    url = parse_websocket_url(impl.options.url);
  } catch (const std::invalid_argument& e) {
    throw ChannelClosed(e.what());
  }
  auto fail = [&](const std::string& why) {
    return ChannelClosed(fmt::format("cannot connect to {}: {}", impl.options.url, why));
  };
  std::promise<beast::error_code> connected;
  auto done = connected.get_future();
  auto self = impl_;
  tcp::resolver resolver(impl.io);
  resolver.async_resolve(url.host, url.port, [&, self](beast::error_code ec, tcp::resolver::results_type results) {
    if (ec) return connected.set_value(ec);
    beast::get_lowest_layer(self->ws).expires_after(timeout);
    beast::get_lowest_layer(self->ws).async_connect(results, [&, self](beast::error_code ec2, const tcp::endpoint&) {
      if (ec2) return connected.set_value(ec2);
      self->ws.read_message_max(self->options.max_message_bytes);
      self->ws.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
        req.set(beast::http::field::sec_websocket_protocol, "mcp");
      }));
      self->ws.async_handshake(url.host + ":" + url.port, url.target,
                               [&](beast::error_code ec3) { connected.set_value(ec3); });
    });
  });
  impl.io_thread = std::thread([self] { self->io.run(); });
  if (done.wait_for(timeout + std::chrono::milliseconds(200)) != std::future_status::ready) {
    impl.io.stop();
    impl.io_thread.join();
    throw fail(fmt::format("no WebSocket handshake within {} ms", timeout.count()));
  }
  beast::error_code ec = done.get();
  if (ec) {
    impl.io.stop();
    impl.io_thread.join();
    throw fail(ec == beast::error::timeout ? fmt::format("timed out after {} ms", timeout.count()) : ec.message());
  }
  beast::get_lowest_layer(impl.ws).expires_never();
  {
    std::lock_guard lock(impl.mutex);
    impl.open = true;
  }
  asio::post(impl.io, [self] { self->read_next(); });
}

Json WebSocketClientChannel::request(const std::string& method, const Json& params,
                                     std::chrono::milliseconds timeout) {
  Impl& impl = *impl_;
  auto pending = std::make_shared<Impl::Pending>();
  Json id;
  {
    std::lock_guard lock(impl.mutex);
    if (!impl.open) throw ChannelClosed(impl.closed_reason.empty() ? "not connected" : impl.closed_reason);
    id = impl.next_id++;
    impl.pending[id.dump()] = pending;
  }
  Json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = params;
  impl.post_frame(message);
  std::unique_lock lock(impl.mutex);
  if (!impl.changed.wait_for(lock, timeout, [&] { return pending->done; })) {
    impl.pending.erase(id.dump());
    throw RequestTimeout(fmt::format("no answer to {} within {} ms", method, timeout.count()), id);
  }
  if (pending->response.is_null()) throw ChannelClosed(impl.closed_reason);
  return result_or_throw(pending->response);
}

void WebSocketClientChannel::notify(const std::string& method, const Json& params) {
  {
    std::lock_guard lock(impl_->mutex);
    if (!impl_->open) throw ChannelClosed(impl_->closed_reason.empty() ? "not connected" : impl_->closed_reason);
  }
  Json message = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = params;
  impl_->post_frame(message);
}

bool WebSocketClientChannel::is_open() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->open;
}

void WebSocketClientChannel::close(std::chrono::milliseconds grace) {
  Impl& impl = *impl_;
  if (!impl.io_thread.joinable()) return;
  bool was_open = is_open();
  if (was_open) {
    // A close frame, then the socket, each bounded by `grace`.
    std::promise<void> closed;
    auto done = closed.get_future();
    asio::post(impl.io, [self = impl_, &closed, grace] {
      beast::get_lowest_layer(self->ws).expires_after(grace);
      self->ws.async_close(websocket::close_code::normal, [&closed](beast::error_code) { closed.set_value(); });
    });
    done.wait_for(grace + std::chrono::milliseconds(100));
  }
  impl.mark_closed("the connection was closed by the client");
  impl.io.stop();
  impl.io_thread.join();
}

}  // namespace mcpref
