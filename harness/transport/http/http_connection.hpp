#pragma once
// One HTTP/1.1 exchange over a plain TCP socket, written for a test harness: every connect, write
// and read has a deadline; heads and bodies have size bounds; the request is sent byte for byte as
// built (wrong headers on purpose are the point of some checks); a streaming body (SSE) can be read
// piece by piece, and another thread can abort a blocked read with abort().
#include "harness/util/clock.hpp"

#include <atomic>
#include <string>
#include <utility>
#include <vector>

namespace mcpspec::transport::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "POST";
  std::string target = "/";
  Headers headers;  // sent in this order; Host, Content-Length and Connection are added unless given
  std::string body;
};

struct HttpHead {
  int status = 0;
  std::string reason;
  Headers headers;
  // The first header of that name (case-insensitive), or empty.
  std::string header(const std::string& name) const;
  bool has_header(const std::string& name) const;
};

// The request as it goes on the wire.
std::string format_request(const HttpRequest& r, const std::string& host_header);
bool iequals(const std::string& a, const std::string& b);

class HttpConnection {
 public:
  HttpConnection() = default;
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;
  ~HttpConnection();

  // Throws TransportError (connection refused, timeout, unknown host).
  void connect(const std::string& host, int port, Deadline deadline);
  void write_all(const std::string& bytes, Deadline deadline);
  // Reads the status line and headers. `head_request`: the body is known to be empty (HEAD).
  HttpHead read_head(Deadline deadline, bool head_request = false, std::size_t max_head_bytes = 64 * 1024);
  // Appends the next piece of the body to `out`; returns false once the body is complete (a
  // response without length ends when the server closes). Throws TransportError on timeout, a
  // broken chunked encoding, or when abort() was called.
  bool read_body(std::string& out, Deadline deadline);
  // Reads the whole remaining body, at most `max_bytes` (throws beyond that).
  std::string read_all(Deadline deadline, std::size_t max_bytes);
  // After a 101 Switching Protocols: the next raw bytes (buffered ones first); false at EOF.
  bool read_raw(std::string& out, Deadline deadline);
  // Wakes a read blocked in another thread; the connection is unusable afterwards.
  void abort();
  void close();
  bool aborted() const { return aborted_; }

 private:
  // Reads more bytes into buf_; false at EOF.
  bool fill(Deadline deadline);
  std::string take_line(Deadline deadline, std::size_t max);

  enum class BodyMode { None, Length, Chunked, UntilClose };
  int fd_ = -1;
  std::atomic<bool> aborted_{false};
  std::string buf_;
  BodyMode mode_ = BodyMode::None;
  unsigned long long remaining_ = 0;  // Length: body bytes left; Chunked: bytes left in this chunk
  bool chunk_header_next_ = true;
  bool done_ = false;
};

}  // namespace mcpspec::transport::http
