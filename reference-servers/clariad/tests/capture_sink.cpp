#include "capture_sink.hpp"

#include <stdexcept>

namespace clariad::test {

bool CaptureSink::write_line(std::string_view text) {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  if (text.find('\n') != std::string_view::npos) throw std::logic_error("a message spans several lines");
  lines_.emplace_back(text);
  cv_.notify_all();
  return true;
}

std::vector<std::string> CaptureSink::lines() const {
  std::lock_guard lock(mutex_);
  return lines_;
}

std::vector<Json> CaptureSink::messages() const {
  std::vector<Json> out;
  for (const std::string& line : lines()) out.push_back(Json::parse(line));
  return out;
}

std::size_t CaptureSink::size() const {
  std::lock_guard lock(mutex_);
  return lines_.size();
}

void CaptureSink::clear() {
  std::lock_guard lock(mutex_);
  lines_.clear();
}

bool CaptureSink::wait_for(std::size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return lines_.size() >= n; });
}

void CaptureSink::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

std::string request(const Json& id, const std::string& method, const Json& params) {
  Json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) msg["params"] = params;
  return msg.dump();
}

}  // namespace clariad::test
