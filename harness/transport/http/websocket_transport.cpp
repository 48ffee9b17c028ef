#include "harness/transport/http/websocket_transport.hpp"

#include <random>

namespace mcpspec::transport::http {

namespace {

std::uint32_t random_u32() {
  static thread_local std::mt19937 rng{std::random_device{}()};
  return rng();
}

}  // namespace

WebSocketTransport::WebSocketTransport(HttpTransportOptions options) : options_(std::move(options)), url_(options_.url) {}

WebSocketTransport::~WebSocketTransport() { stop(); }

std::string WebSocketTransport::describe() const {
  std::string s = "WebSocket " + url_.text();
  if (served_) s += " (" + served_->describe() + ")";
  return s;
}

void WebSocketTransport::start() {
  if (options_.spawn) {
    served_ = std::make_unique<ServedProcess>(*options_.spawn, options_.port_env, events_);
    served_->start(Deadline::after_ms(options_.startup_timeout_ms));
    url_.host = "127.0.0.1";
    url_.port = served_->port();
  }
  unsigned char nonce[16];
  for (auto& b : nonce) b = static_cast<unsigned char>(random_u32());
  std::string key = ws_base64(nonce, 16);
  HttpRequest r;
  r.method = "GET";
  r.target = url_.target;
  r.headers = {{"Upgrade", "websocket"},       {"Connection", "Upgrade"}, {"Sec-WebSocket-Key", key},
               {"Sec-WebSocket-Version", "13"}, {"Sec-WebSocket-Protocol", "mcp"}};
  if (!options_.origin.empty()) r.headers.emplace_back("Origin", options_.origin);
  r.headers.insert(r.headers.end(), options_.headers.begin(), options_.headers.end());
  conn_ = std::make_shared<HttpConnection>();
  Deadline dl = Deadline::after_ms(options_.connect_timeout_ms);
  conn_->connect(url_.host, url_.port, dl);
  conn_->write_all(format_request(r, url_.host_header()), dl);
  HttpHead head = conn_->read_head(dl);
  if (head.status != 101)
    throw TransportError("WebSocket handshake: " + url_.text() + " answered " + std::to_string(head.status) +
                         " instead of 101 Switching Protocols");
  if (head.header("Sec-WebSocket-Accept") != ws_accept(key))
    throw TransportError("WebSocket handshake: wrong Sec-WebSocket-Accept \"" + head.header("Sec-WebSocket-Accept") +
                         "\"");
  note("connected to " + url_.text() + (head.has_header("Sec-WebSocket-Protocol")
                                            ? " (subprotocol " + head.header("Sec-WebSocket-Protocol") + ")"
                                            : ""));
  reader_ = std::thread([this] { read_loop(); });
}

void WebSocketTransport::write_frame(WsOpcode op, std::string_view payload, Deadline deadline) {
  std::lock_guard<std::mutex> lock(write_mu_);
  conn_->write_all(ws_client_frame(op, payload, random_u32()), deadline);
}

void WebSocketTransport::send(const std::string& frame, Deadline deadline) {
  if (!conn_ || stopping_) throw TransportError("the WebSocket is not open");
  write_frame(WsOpcode::Text, frame, deadline);
}

void WebSocketTransport::read_loop() {
  WsDecoder dec(options_.max_message_bytes);
  std::vector<WsMessage> msgs;
  std::string chunk;
  try {
    for (;;) {
      chunk.clear();
      if (!conn_->read_raw(chunk, Deadline::after_ms(options_.stream_max_ms))) {
        events_.push(Event{Event::Type::Closed, "the server closed the WebSocket connection (no close frame)", {}});
        return;
      }
      msgs.clear();
      bool ok = dec.feed(chunk, msgs);
      for (auto& m : msgs) {
        switch (m.opcode) {
          case WsOpcode::Text:
            events_.push(carried_frame(std::move(m.payload), "a WebSocket text message", {"BASE-01"}));
            break;
          case WsOpcode::Binary: note("ignored a binary frame of " + std::to_string(m.payload.size()) + " bytes"); break;
          case WsOpcode::Ping: write_frame(WsOpcode::Pong, m.payload, Deadline::after_ms(2000)); break;
          case WsOpcode::Close:
          {
            try {
              write_frame(WsOpcode::Close, m.payload.substr(0, 2), Deadline::after_ms(1000));
            } catch (const TransportError&) {
              // The server may drop the connection right after its close frame; its status counts.
            }
            Event closed{Event::Type::Closed, "the server sent a WebSocket close frame", {}};
            closed.http_status = ws_close_code(m.payload);
            closed.text += " (status " + std::to_string(closed.http_status) + ")";
            events_.push(std::move(closed));
            return;
          }
          default: break;
        }
      }
      if (!ok) {
        if (dec.error().rfind("message larger", 0) == 0)
          events_.push(Event{Event::Type::Oversize, "WebSocket: " + dec.error(), {}});
        note("protocol error: " + dec.error());
        events_.push(Event{Event::Type::Closed, "WebSocket protocol error: " + dec.error(), {}});
        return;
      }
    }
  } catch (const TransportError& e) {
    if (!stopping_) events_.push(Event{Event::Type::Closed, std::string("the WebSocket broke: ") + e.what(), {}});
  }
}

void WebSocketTransport::close_input() {
  try {
    // Status 1000, normal closure.
    write_frame(WsOpcode::Close, ws_close_payload(1000), Deadline::after_ms(1000));
    note("sent a close frame");
  } catch (const TransportError& e) {
    note(std::string("close frame: ") + e.what());
  }
}

void WebSocketTransport::signal(int sig) {
  if (served_) served_->signal(sig);
  else note("cannot signal a server reached by URL");
}

std::optional<ExitStatus> WebSocketTransport::exit_status() { return served_ ? served_->exit_status() : std::nullopt; }

void WebSocketTransport::stop() {
  if (stopped_) return;
  stopped_ = true;
  stopping_ = true;
  if (conn_) conn_->abort();
  if (reader_.joinable()) reader_.join();
  if (served_) served_->stop(300);
}

}  // namespace mcpspec::transport::http
