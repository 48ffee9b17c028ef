#include "harness/transport/http/sse_parser.hpp"

#include <cctype>

namespace mcpspec::transport::http {

std::string sse_message_event(const std::string& data, const std::string& id) {
  std::string e = id.empty() ? "event: message\n" : "id: " + id + "\nevent: message\n";
  std::size_t start = 0;
  for (;;) {
    auto nl = data.find('\n', start);
    e += "data: " + data.substr(start, nl == std::string::npos ? std::string::npos : nl - start) + "\n";
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return e + "\n";
}

void SseParser::reset_event() {
  cur_ = SseEvent{};
  cur_fields_ = false;
  cur_bytes_ = 0;
}

void SseParser::feed(std::string_view bytes, std::vector<SseEvent>& out) {
  std::size_t i = 0;
  if (!started_ && !bytes.empty()) {
    // A UTF-8 BOM may open the stream; it can arrive split across pieces, so only whole ones count.
    static constexpr std::string_view bom = "\xEF\xBB\xBF";
    if (bytes.substr(0, 3) == bom) i = 3;
    started_ = true;
  }
  for (; i < bytes.size(); ++i) {
    char c = bytes[i];
    if (after_cr_) {
      after_cr_ = false;
      if (c == '\n') continue;
    }
    if (c == '\r' || c == '\n') {
      after_cr_ = c == '\r';
      on_line(line_, out);
      line_.clear();
      continue;
    }
    if (line_.size() >= max_) {
      // One line alone is bigger than an event may be: the event is lost, its end is still found.
      if (!skipping_) {
        SseEvent e;
        e.oversize = true;
        out.push_back(std::move(e));
      }
      skipping_ = true;
      line_.clear();
      reset_event();
    }
    line_.push_back(c);
  }
}

void SseParser::on_line(std::string_view line, std::vector<SseEvent>& out) {
  if (line.empty()) {
    if (skipping_) {
      skipping_ = false;
      reset_event();
      return;
    }
    if (cur_fields_) out.push_back(std::move(cur_));
    reset_event();
    return;
  }
  if (skipping_) return;
  if (line.front() == ':') return;  // a comment (keep-alive)
  std::string_view field = line, value;
  if (auto colon = line.find(':'); colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  cur_bytes_ += line.size();
  if (cur_bytes_ > max_) {
    SseEvent e;
    e.oversize = true;
    out.push_back(std::move(e));
    skipping_ = true;
    reset_event();
    return;
  }
  if (field == "data") {
    if (cur_.has_data) cur_.data.push_back('\n');
    cur_.data.append(value);
    cur_.has_data = true;
    cur_fields_ = true;
  } else if (field == "event") {
    cur_.event = std::string(value);
    cur_fields_ = true;
  } else if (field == "id") {
    // An id containing NUL is ignored by the SSE rules.
    if (value.find('\0') == std::string_view::npos) {
      cur_.id = std::string(value);
      last_id_ = *cur_.id;
      cur_fields_ = true;
    }
  } else if (field == "retry") {
    bool digits = !value.empty() && value.size() < 16;
    for (char d : value) digits = digits && std::isdigit(static_cast<unsigned char>(d));
    if (digits) {
      cur_.retry = std::stoll(std::string(value));
      cur_fields_ = true;
    }
  }
  // Other field names are ignored.
}

}  // namespace mcpspec::transport::http
