#include "mcpref/sse_parser.hpp"

#include <charconv>
#include <stdexcept>

namespace mcpref {

SseParser::SseParser(EventHandler on_event, std::size_t max_bytes)
    : on_event_(std::move(on_event)), max_bytes_(max_bytes) {}

void SseParser::feed(std::string_view chunk) {
  for (char c : chunk) {
    if (after_cr_) {
      after_cr_ = false;
      if (c == '\n') continue;  // the LF of a CRLF pair
    }
    if (c == '\r' || c == '\n') {
      after_cr_ = c == '\r';
      std::string text;
      text.swap(pending_);
      line(text);
      continue;
    }
    pending_ += c;
    if (pending_.size() + current_.data.size() > max_bytes_)
      throw SseTooLarge("an SSE event exceeds the " + std::to_string(max_bytes_) + "-byte limit");
  }
}

void SseParser::line(std::string_view text) {
  if (text.empty()) return dispatch();
  if (text.front() == ':') return;  // a comment (keep-alive)
  auto colon = text.find(':');
  std::string_view field = text.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "data") {
    if (has_data_) current_.data += '\n';
    current_.data += value;
    has_data_ = true;
  } else if (field == "event") {
    current_.event = std::string(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) current_.id = last_id_ = std::string(value);
  } else if (field == "retry") {
    long ms = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (ec == std::errc() && end == value.data() + value.size() && !value.empty()) retry_ms_ = ms;
  }
}

void SseParser::dispatch() {
  // An event without data (a priming event carrying only an id) delivers nothing.
  if (has_data_ && on_event_) on_event_(current_);
  current_ = SseEvent{};
  has_data_ = false;
}

}  // namespace mcpref
