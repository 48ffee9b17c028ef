#include "mcpref/http_client_channel.hpp"

#include "mcpref/jsonrpc.hpp"
#include "mcpref/sse_parser.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <condition_variable>
#include <optional>
#include <regex>
#include <thread>

namespace mcpref {

using Clock = std::chrono::steady_clock;

EndpointUrl split_endpoint_url(const std::string& url) {
  static const std::regex shape(R"(^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]+)([^#]*)$)");
  std::smatch m;
  if (!std::regex_match(url, m, shape))
    throw std::invalid_argument("'" + url + "' is not an http:// or https:// URL with a host");
  std::string scheme = m[1];
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "http" && scheme != "https")
    throw std::invalid_argument("'" + url + "': scheme " + scheme + " is not supported (use http or https)");
  std::string path = m[3];
  return {scheme + "://" + std::string(m[2]), path.empty() ? "/" : path};
}

struct HttpClientChannel::Impl {
  HttpClientOptions options;
  EndpointUrl endpoint;
  mutable std::mutex mutex;
  std::string session_id;
  std::string protocol_version;
  bool open = false;
  std::string closed_reason;
  long long next_id = 1;
  HttpClientChannel* owner = nullptr;  // its handlers; threads that call them end in close()

  // The standalone GET stream, on which a server sends requests and notifications of its own.
  std::thread stream_thread;
  std::condition_variable stream_wake;
  bool stream_stopping = false;
  httplib::Client* stream_client = nullptr;  // the GET in flight (guarded by mutex), to stop it

  std::unique_ptr<httplib::Client> client(Clock::time_point deadline) const {
    auto c = std::make_unique<httplib::Client>(endpoint.origin);
    auto left = std::max<Clock::duration>(deadline - Clock::now(), std::chrono::milliseconds(1));
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(left).count();
    c->set_connection_timeout(us / 1000000, us % 1000000);
    c->set_read_timeout(us / 1000000, us % 1000000);
    c->set_write_timeout(us / 1000000, us % 1000000);
    return c;
  }

  httplib::Headers headers(bool with_version) const {
    std::lock_guard lock(mutex);
    httplib::Headers h{{"Accept", "application/json, text/event-stream"}};
    if (!session_id.empty()) h.emplace("Mcp-Session-Id", session_id);
    if (with_version) h.emplace("MCP-Protocol-Version", protocol_version);
    return h;
  }

  // A message that arrived on a POST's answer and is not the response we wait for.
  void route(const Json& message, Clock::time_point deadline) {
    if (!message.is_object()) return;
    if (message.contains("method") && message["method"].is_string()) {
      std::string method = message["method"];
      Json params = message.value("params", Json());
      if (!message.contains("id")) {
        owner->deliver_notification(method, params);
        return;
      }
      post_quietly(owner->answer_request(message["id"], method, params), deadline);
    }
  }

  // Answers and notifications we send expect 202; a failure there is the server's loss, not a
  // reason to fail the request being waited for.
  void post_quietly(const Json& message, Clock::time_point deadline) {
    try {
      auto c = client(deadline);
      c->Post(endpoint.path, headers(true), to_line(message), "application/json");
    } catch (const std::exception&) {
    }
  }

  // Keeps a GET stream open while the channel is: every event is routed like those on a POST
  // answer. An ended stream is reopened after the server's retry time (from the last event id);
  // 404 (session gone) or 405 (the server offers no stream) end it for good.
  void run_stream() {
    SseParser sse(
        [&](const SseEvent& e) {
          if (e.event != "message") return;
          auto parsed = rpc::parse_json_text(e.data);
          if (parsed.ok) route(parsed.value, Clock::now() + std::chrono::seconds(10));
        },
        options.max_message_bytes);
    for (;;) {
      httplib::Client c(endpoint.origin);
      c.set_connection_timeout(5, 0);
      c.set_read_timeout(300, 0);  // an idle stream is reopened every 5 minutes at the latest
      httplib::Headers h = headers(true);
      h.erase("Accept");
      h.emplace("Accept", "text/event-stream");
      if (!sse.last_event_id().empty()) h.emplace("Last-Event-ID", sse.last_event_id());
      {
        std::lock_guard lock(mutex);
        if (stream_stopping || !open) return;
        stream_client = &c;
      }
      int status = 0;
      auto result = c.Get(
          endpoint.path, h,
          [&](const httplib::Response& r) {
            status = r.status;
            return r.status == 200;
          },
          [&](const char* data, size_t len) {
            try {
              sse.feed(std::string_view(data, len));
            } catch (const std::exception&) {
              return false;
            }
            std::lock_guard lock(mutex);
            return !stream_stopping;
          });
      std::unique_lock lock(mutex);
      stream_client = nullptr;
      if (stream_stopping || !open || status == 404 || status == 405) return;
      auto wait = std::chrono::milliseconds(sse.retry_ms() >= 0 ? sse.retry_ms() : 1000);
      stream_wake.wait_for(lock, wait, [&] { return stream_stopping || !open; });
    }
  }

  void start_stream() {
    std::lock_guard lock(mutex);
    if (stream_thread.joinable() || !open) return;
    stream_stopping = false;
    stream_thread = std::thread([this] { run_stream(); });
  }

  void stop_stream() {
    {
      std::lock_guard lock(mutex);
      stream_stopping = true;
      if (stream_client) stream_client->stop();
    }
    stream_wake.notify_all();
    if (stream_thread.joinable()) stream_thread.join();
  }

  [[noreturn]] void fail_http(const std::string& what, int status, const std::string& body) {
    std::string snippet = body.substr(0, 200);
    if (status == 404 && !session_id.empty()) {
      std::lock_guard lock(mutex);
      open = false;
      closed_reason = "the server ended the HTTP session (404 for Mcp-Session-Id " + session_id + ")";
      throw ChannelClosed(closed_reason);
    }
    throw ChannelClosed(fmt::format("{}: HTTP {} from {}{}{}", what, status, endpoint.origin + endpoint.path,
                                    snippet.empty() ? "" : ": ", snippet));
  }

  // POSTs one message; returns the response whose id is `wanted` (null: none expected), or
  // nullopt at the deadline. An SSE answer that ends before the response is resumed with GET and
  // Last-Event-ID after the server's retry time, as long as the deadline allows.
  std::optional<Json> post(const Json& message, const Json& wanted, Clock::time_point deadline,
                           const std::string& what) {
    std::optional<Json> answer;
    auto take = [&](const Json& m) {
      if (!wanted.is_null() && m.is_object() && m.contains("id") && m["id"] == wanted &&
          (m.contains("result") || m.contains("error")) && !m.contains("method")) {
        answer = m;
        return;
      }
      route(m, deadline);
    };
    SseParser sse(
        [&](const SseEvent& e) {
          if (e.event != "message") return;
          auto parsed = rpc::parse_json_text(e.data);
          if (parsed.ok) take(parsed.value);
        },
        options.max_message_bytes);

    httplib::Request req;
    req.method = "POST";
    req.path = endpoint.path;
    req.headers = headers(!(message.contains("method") && message["method"] == "initialize"));
    req.body = to_line(message);
    req.set_header("Content-Type", "application/json");
    std::string body;
    bool is_sse = exchange(req, sse, body, answer, deadline, what);
    if (!is_sse && !body.empty()) {
      auto parsed = rpc::parse_json_text(body);
      if (!parsed.ok) throw ChannelClosed(what + ": the server's answer is not JSON");
      if (parsed.value.is_array())
        for (const auto& m : parsed.value) take(m);
      else
        take(parsed.value);
    }
    while (!answer && !wanted.is_null() && is_sse) {
      if (sse.last_event_id().empty())
        throw ChannelClosed(what + ": the server ended the answer stream without answering and without an event id "
                                   "to resume from");
      auto wait = std::chrono::milliseconds(sse.retry_ms() >= 0 ? sse.retry_ms() : 1000);
      if (Clock::now() + wait >= deadline) {
        std::this_thread::sleep_until(deadline);
        return std::nullopt;
      }
      std::this_thread::sleep_for(wait);
      httplib::Request resume;
      resume.method = "GET";
      resume.path = endpoint.path;
      resume.headers = headers(true);
      resume.headers.erase("Accept");
      resume.set_header("Accept", "text/event-stream");
      resume.set_header("Last-Event-ID", sse.last_event_id());
      std::string ignored;
      std::string before = sse.last_event_id();
      is_sse = exchange(resume, sse, ignored, answer, deadline, what + " (resuming)");
      if (!answer && sse.last_event_id() == before && Clock::now() >= deadline) return std::nullopt;
    }
    return answer;
  }

  // Sends one request, feeding an SSE answer to `sse` as it arrives (or collecting a JSON answer
  // in `body`) until `answer` is set or the deadline. Returns whether the answer was SSE.
  bool exchange(httplib::Request& req, SseParser& sse, std::string& body, const std::optional<Json>& answer,
                Clock::time_point deadline, const std::string& what) {
    bool is_sse = false;
    std::string error_text;
    req.response_handler = [&](const httplib::Response& r) {
      is_sse = r.get_header_value("Content-Type").rfind("text/event-stream", 0) == 0;
      std::string sid = r.get_header_value("Mcp-Session-Id");
      if (!sid.empty()) {
        std::lock_guard lock(mutex);
        session_id = sid;
      }
      return true;
    };
    req.content_receiver = [&](const char* data, size_t len, uint64_t, uint64_t) {
      try {
        if (is_sse) {
          sse.feed(std::string_view(data, len));
        } else {
          if (body.size() + len > options.max_message_bytes) {
            error_text = fmt::format("the answer exceeds {} bytes", options.max_message_bytes);
            return false;
          }
          body.append(data, len);
        }
      } catch (const std::exception& e) {
        error_text = e.what();
        return false;
      }
      // Stop reading the stream once our answer is in, or at the deadline.
      return !answer && Clock::now() < deadline;
    };
    auto c = client(deadline);
    auto result = c->send(req);
    if (!error_text.empty()) throw ChannelClosed(what + ": " + error_text);
    if (!result) {
      if (answer || Clock::now() >= deadline || result.error() == httplib::Error::Read ||
          result.error() == httplib::Error::Canceled)
        return is_sse;
      throw ChannelClosed(fmt::format("{}: cannot reach {}: {}", what, endpoint.origin + endpoint.path,
                                      httplib::to_string(result.error())));
    }
    if (result->status >= 300) fail_http(what, result->status, body);
    return is_sse;
  }
};

HttpClientChannel::HttpClientChannel(HttpClientOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->owner = this;
  impl_->options = std::move(options);
  impl_->protocol_version = impl_->options.protocol_version;
}

HttpClientChannel::~HttpClientChannel() { close(std::chrono::milliseconds(500)); }

void HttpClientChannel::open(std::chrono::milliseconds) {
  try {
    impl_->endpoint = split_endpoint_url(impl_->options.url);
  } catch (const std::invalid_argument& e) {
    throw ChannelClosed(std::string("cannot use the MCP endpoint ") + e.what());
  }
  std::lock_guard lock(impl_->mutex);
  impl_->open = true;
  impl_->closed_reason.clear();
}

Json HttpClientChannel::request(const std::string& method, const Json& params, std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  Json id;
  {
    std::lock_guard lock(impl_->mutex);
    if (!impl_->open)
      throw ChannelClosed(impl_->closed_reason.empty() ? "the HTTP channel is not open" : impl_->closed_reason);
    id = impl_->next_id++;
  }
  Json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = params;
  announce_sent(method, id);
  auto answer = impl_->post(message, id, deadline, method);
  if (!answer)
    throw RequestTimeout(fmt::format("no answer to {} (id {}) within {} ms", method, id.dump(), timeout.count()), id);
  Json result = result_or_throw(*answer);
  if (method == "initialize" && result.is_object() && result.contains("protocolVersion") &&
      result["protocolVersion"].is_string()) {
    std::lock_guard lock(impl_->mutex);
    impl_->protocol_version = result["protocolVersion"];
  }
  return result;
}

void HttpClientChannel::notify(const std::string& method, const Json& params) {
  {
    std::lock_guard lock(impl_->mutex);
    if (!impl_->open)
      throw ChannelClosed(impl_->closed_reason.empty() ? "the HTTP channel is not open" : impl_->closed_reason);
  }
  Json message = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = params;
  impl_->post(message, Json(), Clock::now() + std::chrono::seconds(10), method);
  // Once the session is initialized the server may talk first: listen on a GET stream.
  if (method == "notifications/initialized") impl_->start_stream();
}

bool HttpClientChannel::is_open() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->open;
}

std::string HttpClientChannel::session_id() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->session_id;
}

void HttpClientChannel::close(std::chrono::milliseconds grace) {
  std::string sid;
  bool was_open;
  {
    std::lock_guard lock(impl_->mutex);
    was_open = impl_->open;
    impl_->open = false;
    if (was_open) impl_->closed_reason = "the HTTP channel was closed";
    sid = impl_->session_id;
  }
  impl_->stop_stream();  // also after the server ended the session: the thread must be joined
  if (!was_open || sid.empty()) return;
  try {
    auto c = impl_->client(Clock::now() + grace);
    c->Delete(impl_->endpoint.path, impl_->headers(true));
  } catch (const std::exception&) {
  }
}

}  // namespace mcpref
