#include "harness/transport/http/websocket_server.hpp"

#include "harness/transport/http/request_guard.hpp"
#include "harness/transport/http/ws_frame.hpp"

#include <fmt/format.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mcpspec::transport::http {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxHead = RequestLimits::kMaxHeadBytes;
constexpr int kHandshakeMs = RequestLimits::kIdleSeconds * 1000;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string trim(const std::string& s) {
  auto a = s.find_first_not_of(" \t");
  auto b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool has_token(const std::string& list, const std::string& token) {
  std::size_t start = 0;
  std::string l = lower(list);
  for (;;) {
    auto comma = l.find(',', start);
    if (trim(l.substr(start, comma == std::string::npos ? std::string::npos : comma - start)) == token) return true;
    if (comma == std::string::npos) return false;
    start = comma + 1;
  }
}

// A Sec-WebSocket-Key must be base64 of 16 bytes: 22 characters and "==".
bool valid_key(const std::string& k) {
  if (k.size() != 24 || k.substr(22) != "==") return false;
  return std::all_of(k.begin(), k.begin() + 22, [](unsigned char c) { return std::isalnum(c) || c == '+' || c == '/'; });
}

}  // namespace

WebSocketServer::WebSocketServer(ClientSideOptions options, EventQueue& events)
    : options_(std::move(options)), events_(events) {}

WebSocketServer::~WebSocketServer() { stop(); }

void WebSocketServer::note(const std::string& line) { events_.push(Event{Event::Type::Stderr, "http: " + line, {}}); }

void WebSocketServer::start() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw TransportError(std::string("socket: ") + strerror(errno));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // 127.0.0.1 only
  a.sin_port = 0;
  socklen_t len = sizeof a;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_fd_, 128) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    throw TransportError(std::string("cannot listen on 127.0.0.1 for the client under test: ") + strerror(errno));
  port_ = ntohs(a.sin_port);
  acceptor_ = std::thread([this] { accept_loop(); });
}

std::string WebSocketServer::url() const { return fmt::format("ws://127.0.0.1:{}/mcp", port_); }

void WebSocketServer::accept_loop() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::vector<std::thread> ended;
    {
      std::lock_guard<std::mutex> lock(mu_);
      // Join the threads of connections that ended, so a client reconnecting in a loop holds
      // neither threads nor a growing list.
      for (auto it = connections_.begin(); it != connections_.end();) {
        if (it->done->load()) {
          ended.push_back(std::move(it->thread));
          it = connections_.erase(it);
        } else {
          ++it;
        }
      }
      if (connections_.size() < static_cast<std::size_t>(RequestLimits::kMaxConnections)) {
        auto done = std::make_shared<std::atomic<bool>>(false);
        connections_.push_back({std::thread([this, fd, done] {
                                  serve(fd);
                                  done->store(true);
                                }),
                                done});
        fd = -1;
      }
    }
    for (auto& t : ended) t.join();
    if (fd >= 0) {
      static const std::string busy = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      (void)::send(fd, busy.data(), busy.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      ::close(fd);
      note(fmt::format("more than {} WebSocket connections: one more answered 503 and closed", RequestLimits::kMaxConnections));
    }
  }
}

bool WebSocketServer::handshake(int fd) {
  std::string head;
  Deadline dl = Deadline::after_ms(kHandshakeMs);
  while (head.find("\r\n\r\n") == std::string::npos) {
    if (dl.passed() || stopping_ || head.size() > kMaxHead) {
      note(head.size() > kMaxHead ? "WebSocket handshake head over 64 KiB: connection closed"
                                  : "no complete WebSocket handshake within 5 s: connection closed");
      return false;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, std::min(100, dl.remaining_ms())) <= 0) continue;
    char buf[4096];
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    head.append(buf, static_cast<std::size_t>(n));
  }
  // A head that arrived whole in a few reads is only measured here.
  if (head.find("\r\n\r\n") + 4 > kMaxHead) {
    note("WebSocket handshake head over 64 KiB: connection closed");
    return false;
  }
  // Bytes after the head would be frames sent before our answer, which a client must not do.
  head.erase(head.find("\r\n\r\n"));
  std::string request_line = head.substr(0, head.find("\r\n"));
  json headers = json::object();
  std::size_t pos = head.find("\r\n");
  while (pos != std::string::npos) {
    std::size_t next = head.find("\r\n", pos + 2);
    std::string line = head.substr(pos + 2, next == std::string::npos ? std::string::npos : next - pos - 2);
    auto colon = line.find(':');
    if (colon != std::string::npos) headers[lower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 1));
    pos = next;
  }
  auto h = [&](const char* name) { return headers.contains(name) ? headers[name].get<std::string>() : std::string(); };
  std::string method = request_line.substr(0, request_line.find(' '));
  std::string path = request_line.size() > method.size() + 1 ? request_line.substr(method.size() + 1) : "";
  path = path.substr(0, path.find(' '));

  std::string problem;
  const std::string forbidden = forbidden_reason(h("host"), h("origin"), ListenAddress{"127.0.0.1", port_});
  if (!forbidden.empty()) problem = forbidden;
  else if (method != "GET") problem = "the opening handshake is a " + method + ", not a GET";
  else if (!has_token(h("upgrade"), "websocket")) problem = "no Upgrade: websocket";
  else if (!has_token(h("connection"), "upgrade")) problem = "Connection does not list Upgrade";
  else if (h("sec-websocket-version") != "13") problem = "Sec-WebSocket-Version is not 13";
  else if (!valid_key(h("sec-websocket-key"))) problem = "Sec-WebSocket-Key is not base64 of 16 bytes";
  int status = problem.empty() ? 101 : forbidden.empty() ? 400 : 403;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (records_.size() < 1000)
      records_.push_back({{"method", method},
                          {"path", path},
                          {"headers", headers},
                          {"status", status},
                          {"ms", static_cast<long long>(ms_since(started_))}});
  }
  std::string answer;
  if (!problem.empty()) {
    answer = fmt::format("HTTP/1.1 {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                         status == 403 ? "403 Forbidden" : "400 Bad Request");
    note(fmt::format("WebSocket handshake refused ({}): {}", status, problem));
  } else {
    bool mcp = has_token(h("sec-websocket-protocol"), "mcp");
    answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
             ws_accept(h("sec-websocket-key")) + "\r\n" + (mcp ? "Sec-WebSocket-Protocol: mcp\r\n" : "") + "\r\n";
    note(std::string("WebSocket handshake -> 101") +
         (mcp ? " (subprotocol mcp)" : " (the client offered no subprotocol mcp)"));
  }
  try {
    write_frame(fd, answer, Deadline::after_ms(kHandshakeMs));
  } catch (const TransportError&) {
    return false;
  }
  return problem.empty();
}

void WebSocketServer::write_frame(int fd, const std::string& bytes, Deadline deadline) {
  std::lock_guard<std::mutex> lock(write_mu_);
  std::size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) throw TransportError(std::string("write to the client: ") + strerror(errno));
    if (deadline.passed())
      throw TransportError("the client did not read before the deadline (" + std::to_string(off) + " of " +
                           std::to_string(bytes.size()) + " bytes written)");
    pollfd p{fd, POLLOUT, 0};
    ::poll(&p, 1, std::min(100, deadline.remaining_ms()));
  }
}

void WebSocketServer::end_connection(int fd, const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (current_ != fd) return;  // already ended by crash() or close()
    current_ = -1;
  }
  events_.push(Event{Event::Type::Closed, why, {}});
}

void WebSocketServer::serve(int fd) {
  if (!handshake(fd)) {
    ::close(fd);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    // A new connection is a new session; an older one still open no longer receives messages.
    current_ = fd;
    we_closed_ = false;
    ++accepted_;
  }
  WsDecoder decoder(options_.max_message_bytes, WsRole::Server);
  std::vector<WsMessage> messages;
  std::string ended = "the client dropped the WebSocket connection without a close frame";
  while (!stopping_) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buf[65536];
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    messages.clear();
    bool ok = decoder.feed(std::string_view(buf, static_cast<std::size_t>(n)), messages);
    bool closing = false;
    for (auto& m : messages) {
      if (m.opcode == WsOpcode::Text) {
        events_.push(carried_frame(std::move(m.payload), "a WebSocket text message", {"BASE-01"}));
      } else if (m.opcode == WsOpcode::Binary) {
        note(fmt::format("a binary WebSocket frame of {} bytes (ignored: messages are text frames)", m.payload.size()));
      } else if (m.opcode == WsOpcode::Ping) {
        try {
          write_frame(fd, ws_server_frame(WsOpcode::Pong, m.payload), Deadline::after_ms(kHandshakeMs));
        } catch (const TransportError&) {
        }
      } else if (m.opcode == WsOpcode::Close) {
        int code = ws_close_code(m.payload);
        bool answer;
        {
          std::lock_guard<std::mutex> lock(mu_);
          answer = !(current_ != fd && we_closed_);
        }
        if (answer) {
          try {
            write_frame(fd, ws_server_frame(WsOpcode::Close, m.payload.substr(0, 2)), Deadline::after_ms(1000));
          } catch (const TransportError&) {
          }
        }
        ended = fmt::format("the client closed the WebSocket (close code {})", code);
        closing = true;
        break;
      }
    }
    if (!ok) {
      note("WebSocket protocol error from the client: " + decoder.error());
      try {
        write_frame(fd, ws_server_frame(WsOpcode::Close, ws_close_payload(decoder.error().find("larger") != std::string::npos ? 1009 : 1002)),
                    Deadline::after_ms(1000));
      } catch (const TransportError&) {
      }
      ended = "the harness closed the WebSocket after a protocol error: " + decoder.error();
      break;
    }
    if (closing) break;
  }
  end_connection(fd, ended);
  std::lock_guard<std::mutex> lock(write_mu_);
  ::close(fd);
}

void WebSocketServer::deliver(const std::string& text, Deadline deadline) {
  int fd;
  {
    std::lock_guard<std::mutex> lock(mu_);
    fd = current_;
  }
  if (fd < 0)
    throw TransportError(accepted_ == 0 ? "the client has not connected (no WebSocket handshake yet)"
                                        : "the client's WebSocket connection has ended");
  write_frame(fd, ws_server_frame(WsOpcode::Text, text), deadline);
}

void WebSocketServer::crash() {
  int fd;
  {
    std::lock_guard<std::mutex> lock(mu_);
    fd = current_;
    current_ = -1;
  }
  if (fd < 0) return;
  ::shutdown(fd, SHUT_RDWR);  // no close frame: the connection just breaks
  note("the server dropped the WebSocket connection (no close frame)");
  events_.push(Event{Event::Type::Closed, "the harness dropped the connection abruptly", {}});
}

void WebSocketServer::close() {
  int fd;
  {
    std::lock_guard<std::mutex> lock(mu_);
    fd = current_;
    current_ = -1;
    we_closed_ = true;
  }
  if (fd < 0) return;
  try {
    write_frame(fd, ws_server_frame(WsOpcode::Close, ws_close_payload(1000)), Deadline::after_ms(1000));
  } catch (const TransportError&) {
  }
  note("the server closed the WebSocket (close code 1000)");
  events_.push(Event{Event::Type::Closed, "the harness closed the connection (WebSocket close 1000)", {}});
}

bool WebSocketServer::session_open() const {
  std::lock_guard<std::mutex> lock(mu_);
  return current_ >= 0;
}

int WebSocketServer::sessions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return accepted_;
}

json WebSocketServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  json a = json::array();
  for (const auto& r : records_) a.push_back(r);
  return a;
}

void WebSocketServer::stop() {
  if (stopping_.exchange(true)) return;
  if (acceptor_.joinable()) acceptor_.join();
  std::vector<Connection> connections;
  {
    std::lock_guard<std::mutex> lock(mu_);
    connections.swap(connections_);
  }
  for (auto& c : connections)
    if (c.thread.joinable()) c.thread.join();  // each notices stopping_ within 100 ms (poll slices)
  if (listen_fd_ >= 0) ::close(listen_fd_);
  listen_fd_ = -1;
}

}  // namespace mcpspec::transport::http
