#include "harness/transport/http/legacy_sse_transport.hpp"

#include "harness/transport/http/sse_parser.hpp"

namespace mcpspec::transport::http {

namespace {
std::string clip(const std::string& s, std::size_t n = 300) { return s.size() > n ? s.substr(0, n) + "..." : s; }
}  // namespace

LegacySseTransport::LegacySseTransport(HttpTransportOptions options) : options_(std::move(options)), url_(options_.url) {}

LegacySseTransport::~LegacySseTransport() { stop(); }

std::string LegacySseTransport::describe() const {
  std::string s = "HTTP+SSE (2024-11-05) " + url_.text();
  if (served_) s += " (" + served_->describe() + ")";
  return s;
}

Url LegacySseTransport::post_url() const {
  std::lock_guard<std::mutex> lock(mu_);
  return post_url_ ? *post_url_ : url_;
}

void LegacySseTransport::start() {
  if (options_.spawn) {
    served_ = std::make_unique<ServedProcess>(*options_.spawn, options_.port_env, events_);
    served_->start(Deadline::after_ms(options_.startup_timeout_ms));
    url_.host = "127.0.0.1";
    url_.port = served_->port();
  }
  stream_ = std::make_shared<HttpConnection>();
  HttpRequest r;
  r.method = "GET";
  r.target = url_.target;
  r.headers = {{"Accept", "text/event-stream"}};
  if (!options_.origin.empty()) r.headers.emplace_back("Origin", options_.origin);
  r.headers.insert(r.headers.end(), options_.headers.begin(), options_.headers.end());
  Deadline dl = Deadline::after_ms(options_.connect_timeout_ms);
  stream_->connect(url_.host, url_.port, dl);
  stream_->write_all(format_request(r, url_.host_header()), dl);
  reader_ = std::thread([this] { read_stream(); });
  // The endpoint event must come first (SSE-04); without it nothing can be sent.
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_until(lock, Deadline::after_ms(options_.startup_timeout_ms).at(),
                 [this] { return post_url_.has_value() || !endpoint_problem_.empty() || stream_over_; });
  if (post_url_) return;
  // Not thrown: a scenario about the endpoint event must still run and report SSE-04 itself;
  // sending fails with this reason.
  if (endpoint_problem_.empty())
    endpoint_problem_ = stream_over_ ? "the SSE stream ended before an endpoint event"
                                     : "no endpoint event within the start-up allowance";
  lock.unlock();
  note(endpoint_problem_ + " (SSE-04)");
}

void LegacySseTransport::read_stream() {
  try {
    HttpHead head = stream_->read_head(Deadline::after_ms(options_.startup_timeout_ms));
    std::string ct = head.header("Content-Type");
    note("GET " + url_.target + " -> " + std::to_string(head.status) + " " + ct);
    if (head.status != 200 || ct.find("text/event-stream") == std::string::npos) {
      std::lock_guard<std::mutex> lock(mu_);
      endpoint_problem_ = "GET answered " + std::to_string(head.status) + " " + ct + ", not an event stream";
      cv_.notify_all();
      return;
    }
    SseParser parser(options_.max_message_bytes);
    std::vector<SseEvent> evs;
    std::string chunk;
    Deadline dl = Deadline::after_ms(options_.stream_max_ms);
    bool more = true, first = true;
    while (more) {
      chunk.clear();
      more = stream_->read_body(chunk, dl);
      evs.clear();
      parser.feed(chunk, evs);
      for (auto& e : evs) {
        if (e.oversize) {
          events_.push(Event{Event::Type::Oversize, "an SSE event exceeded the size bound", {}});
          continue;
        }
        if (first && e.type() != "endpoint") {
          std::lock_guard<std::mutex> lock(mu_);
          if (!post_url_) {
            endpoint_problem_ = "the first SSE event is \"" + clip(e.type(), 40) + "\", not \"endpoint\"";
            cv_.notify_all();
          }
        }
        first = false;
        if (e.type() == "endpoint") {
          std::lock_guard<std::mutex> lock(mu_);
          try {
            post_url_ = resolve_url(url_, e.data);
            note("endpoint event: " + clip(e.data, 200));
          } catch (const std::exception& ex) {
            endpoint_problem_ = "the endpoint event's URI \"" + clip(e.data, 100) + "\" is unusable: " + ex.what();
          }
          cv_.notify_all();
        } else if (e.type() == "message" && e.has_data) {
          events_.push(carried_frame(e.data, "an SSE message event", {"BASE-01"}));
        } else if (e.has_data) {
          note("ignored an SSE event of type \"" + clip(e.type(), 40) + "\"");
        }
      }
    }
    note("the SSE stream ended");
    events_.push(Event{Event::Type::Closed, "the server ended the SSE stream", {}});
  } catch (const TransportError& e) {
    if (!stopping_) {
      note(std::string("SSE stream: ") + e.what());
      events_.push(Event{Event::Type::Closed, std::string("the SSE stream broke: ") + e.what(), {}});
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  stream_over_ = true;
  cv_.notify_all();
}

void LegacySseTransport::send(const std::string& frame, Deadline deadline) { send_raw(frame, deadline); }

void LegacySseTransport::send_raw(const std::string& bytes, Deadline deadline) {
  const std::uint64_t send_no = ++sends_;
  if (stopping_) throw TransportError("the transport is stopped");
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!post_url_) throw TransportError("no POST endpoint: " + endpoint_problem_ + " (SSE-04)");
  }
  Url to = post_url();
  HttpRequest r;
  r.method = "POST";
  r.target = to.target;
  r.headers = {{"Content-Type", "application/json"}};
  if (!options_.origin.empty()) r.headers.emplace_back("Origin", options_.origin);
  r.headers.insert(r.headers.end(), options_.headers.begin(), options_.headers.end());
  r.body = bytes;
  HttpConnection c;
  c.connect(to.host, to.port, Deadline::after_ms(options_.connect_timeout_ms).earliest(deadline));
  c.write_all(format_request(r, to.host_header()), deadline);
  // Legacy servers acknowledge at once (202) and answer on the SSE stream.
  HttpHead head = c.read_head(deadline);
  std::string body = c.read_all(deadline, 65536);
  if (head.status / 100 != 2) {
    note("POST -> " + std::to_string(head.status) + " " + clip(body));
    // Refused: a JSON-looking body is still the server's message (scenarios and monitors judge it).
    Event e{Event::Type::Rejected, body, {}};
    e.send = send_no;
    e.http_status = head.status;
    e.message = !body.empty() && (body[0] == '{' || body[0] == '[');
    events_.push(std::move(e));
  }
}

void LegacySseTransport::close_input() {
  note("close_input: closing the SSE stream ends a legacy HTTP+SSE session");
  if (stream_) stream_->abort();
}

void LegacySseTransport::signal(int sig) {
  if (served_) served_->signal(sig);
  else note("cannot signal a server reached by URL");
}

std::optional<ExitStatus> LegacySseTransport::exit_status() { return served_ ? served_->exit_status() : std::nullopt; }

void LegacySseTransport::stop() {
  if (stopped_) return;
  stopped_ = true;
  stopping_ = true;
  if (stream_) stream_->abort();
  if (reader_.joinable()) reader_.join();
  if (served_) served_->stop(300);
}

}  // namespace mcpspec::transport::http
