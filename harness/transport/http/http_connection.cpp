#include "harness/transport/http/http_connection.hpp"

#include "harness/transport/transport.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>

namespace mcpspec::transport::http {

bool iequals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string HttpHead::header(const std::string& name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return "";
}

bool HttpHead::has_header(const std::string& name) const {
  for (const auto& h : headers)
    if (iequals(h.first, name)) return true;
  return false;
}

std::string format_request(const HttpRequest& r, const std::string& host_header) {
  auto given = [&](const char* n) {
    for (const auto& h : r.headers)
      if (iequals(h.first, n)) return true;
    return false;
  };
  std::string out = r.method + " " + r.target + " HTTP/1.1\r\n";
  if (!given("Host")) out += "Host: " + host_header + "\r\n";
  for (const auto& [k, v] : r.headers) out += k + ": " + v + "\r\n";
  bool has_body = !r.body.empty() || r.method == "POST" || r.method == "PUT";
  if (has_body && !given("Content-Length")) out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  // One exchange per connection keeps stream ownership obvious (each POST/GET is its own stream).
  if (!given("Connection")) out += "Connection: close\r\n";
  out += "\r\n";
  out += r.body;
  return out;
}

HttpConnection::~HttpConnection() { close(); }

void HttpConnection::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void HttpConnection::abort() {
  aborted_ = true;
  // shutdown (not close) so a poll() in another thread returns and the descriptor stays valid.
  if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

void HttpConnection::connect(const std::string& host, int port, Deadline deadline) {
  struct addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  std::string where = host + ":" + std::to_string(port);
  int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
  if (rc != 0) throw TransportError("cannot resolve " + where + ": " + gai_strerror(rc));
  std::string last = "no address";
  for (auto* ai = res; ai; ai = ai->ai_next) {
    int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
    if (fd < 0) continue;
    int r = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
    if (r < 0 && errno == EINPROGRESS) {
      struct pollfd p{fd, POLLOUT, 0};
      int pr = ::poll(&p, 1, deadline.remaining_ms());
      int err = 0;
      socklen_t len = sizeof err;
      if (pr <= 0) {
        last = "timed out";
        ::close(fd);
        continue;
      }
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      r = err == 0 ? 0 : -1;
      errno = err;
    }
    if (r == 0) {
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      fd_ = fd;
      ::freeaddrinfo(res);
      if (aborted_) ::shutdown(fd_, SHUT_RDWR);  // abort() raced with the connect
      return;
    }
    last = strerror(errno);
    ::close(fd);
  }
  ::freeaddrinfo(res);
  throw TransportError("cannot connect to " + where + ": " + last);
}

void HttpConnection::write_all(const std::string& bytes, Deadline deadline) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    if (aborted_) throw TransportError("connection aborted");
    ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) throw TransportError(std::string("sending the HTTP request: ") + strerror(errno));
    struct pollfd p{fd_, POLLOUT, 0};
    if (::poll(&p, 1, deadline.remaining_ms()) <= 0 && deadline.passed())
      throw TransportError("the server did not accept the request bytes before the deadline");
  }
}

bool HttpConnection::fill(Deadline deadline) {
  char tmp[16384];
  for (;;) {
    if (aborted_) throw TransportError("connection aborted");
    ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
    if (n > 0) {
      buf_.append(tmp, static_cast<std::size_t>(n));
      return true;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    if (errno != EAGAIN) {
      if (aborted_) throw TransportError("connection aborted");
      throw TransportError(std::string("reading the HTTP response: ") + strerror(errno));
    }
    if (deadline.passed()) throw TransportError("timed out waiting for the HTTP response");
    struct pollfd p{fd_, POLLIN, 0};
    ::poll(&p, 1, deadline.remaining_ms(1000));
  }
}

std::string HttpConnection::take_line(Deadline deadline, std::size_t max) {
  for (;;) {
    auto nl = buf_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buf_.substr(0, nl);
      buf_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (buf_.size() > max) throw TransportError("HTTP line longer than " + std::to_string(max) + " bytes");
    if (!fill(deadline)) throw TransportError("the server closed the connection in the middle of the HTTP head");
  }
}

HttpHead HttpConnection::read_head(Deadline deadline, bool head_request, std::size_t max_head_bytes) {
  HttpHead h;
  std::size_t used = 0;
  for (;;) {
    std::string status_line = take_line(deadline, max_head_bytes);
    // "HTTP/1.1 200 OK"
    if (status_line.rfind("HTTP/", 0) != 0 || status_line.size() < 12)
      throw TransportError("not an HTTP response: \"" + status_line.substr(0, 80) + "\"");
    try {
      h.status = std::stoi(status_line.substr(9, 3));
    } catch (const std::exception&) {
      throw TransportError("bad HTTP status line: \"" + status_line.substr(0, 80) + "\"");
    }
    h.reason = status_line.size() > 13 ? status_line.substr(13) : "";
    h.headers.clear();
    for (;;) {
      std::string line = take_line(deadline, max_head_bytes);
      used += line.size() + 2;
      if (used > max_head_bytes) throw TransportError("HTTP head larger than " + std::to_string(max_head_bytes) + " bytes");
      if (line.empty()) break;
      auto colon = line.find(':');
      if (colon == std::string::npos) throw TransportError("malformed HTTP header line: \"" + line.substr(0, 80) + "\"");
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(" \t"));
      while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.pop_back();
      h.headers.emplace_back(line.substr(0, colon), value);
    }
    if (h.status >= 200 || h.status == 101) break;  // 1xx interim responses are skipped
  }
  done_ = false;
  if (head_request || h.status == 204 || h.status == 304 || h.status == 101) {
    mode_ = BodyMode::None;
    done_ = true;
  } else if (h.header("Transfer-Encoding").find("chunked") != std::string::npos) {
    mode_ = BodyMode::Chunked;
    chunk_header_next_ = true;
  } else if (h.has_header("Content-Length")) {
    std::string cl = h.header("Content-Length");
    if (cl.empty() || cl.find_first_not_of("0123456789") != std::string::npos || cl.size() > 15)
      throw TransportError("bad Content-Length \"" + cl + "\"");
    mode_ = BodyMode::Length;
    remaining_ = std::stoull(cl);
    done_ = remaining_ == 0;
  } else {
    mode_ = BodyMode::UntilClose;
  }
  return h;
}

bool HttpConnection::read_body(std::string& out, Deadline deadline) {
  if (done_) return false;
  switch (mode_) {
    case BodyMode::None: done_ = true; return false;
    case BodyMode::Length: {
      if (buf_.empty() && !fill(deadline))
        throw TransportError("the server closed the connection with " + std::to_string(remaining_) +
                             " body bytes still announced");
      std::size_t n = static_cast<std::size_t>(std::min<unsigned long long>(remaining_, buf_.size()));
      out.append(buf_, 0, n);
      buf_.erase(0, n);
      remaining_ -= n;
      done_ = remaining_ == 0;
      return !done_;
    }
    case BodyMode::UntilClose: {
      if (buf_.empty() && !fill(deadline)) {
        done_ = true;
        return false;
      }
      out += buf_;
      buf_.clear();
      return true;
    }
    case BodyMode::Chunked: {
      if (chunk_header_next_) {
        std::string line = take_line(deadline, 1024);
        auto semi = line.find(';');
        std::string hex = line.substr(0, semi);
        while (!hex.empty() && hex.back() == ' ') hex.pop_back();
        if (hex.empty() || hex.size() > 15 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
          throw TransportError("broken chunked encoding: chunk size line \"" + line.substr(0, 40) + "\"");
        remaining_ = std::stoull(hex, nullptr, 16);
        chunk_header_next_ = false;
        if (remaining_ == 0) {
          // Trailers until the blank line.
          for (int i = 0; i < 100; ++i)
            if (take_line(deadline, 8192).empty()) break;
          done_ = true;
          return false;
        }
      }
      if (buf_.empty() && !fill(deadline))
        throw TransportError("the server closed the connection in the middle of a chunk");
      std::size_t n = static_cast<std::size_t>(std::min<unsigned long long>(remaining_, buf_.size()));
      out.append(buf_, 0, n);
      buf_.erase(0, n);
      remaining_ -= n;
      if (remaining_ == 0) {
        std::string crlf = take_line(deadline, 16);
        if (!crlf.empty()) throw TransportError("broken chunked encoding: no CRLF after a chunk");
        chunk_header_next_ = true;
      }
      return true;
    }
  }
  return false;
}

bool HttpConnection::read_raw(std::string& out, Deadline deadline) {
  if (buf_.empty() && !fill(deadline)) return false;
  out += buf_;
  buf_.clear();
  return true;
}

std::string HttpConnection::read_all(Deadline deadline, std::size_t max_bytes) {
  std::string body;
  while (read_body(body, deadline))
    if (body.size() > max_bytes)
      throw TransportError("HTTP body larger than " + std::to_string(max_bytes) + " bytes");
  if (body.size() > max_bytes) throw TransportError("HTTP body larger than " + std::to_string(max_bytes) + " bytes");
  return body;
}

}  // namespace mcpspec::transport::http
