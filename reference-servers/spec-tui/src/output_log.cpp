#include "output_log.hpp"

#include <chrono>
#include <ctime>
#include <sstream>
#include <stdexcept>

namespace spectui {

void OutputLog::open(const std::filesystem::path& file) {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  std::lock_guard lock(mutex_);
  out_.open(file, std::ios::app);
  if (!out_) throw std::runtime_error("cannot open the log file " + file.string() + " for appending");
  file_ = file;
}

void OutputLog::write(const char* kind, const std::string& text) {
  if (!out_.is_open()) return;
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  char stamp[40];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", std::gmtime(&t));
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(ms));
  out_ << stamp << millis << ' ' << kind << ' ' << text << '\n';
  out_.flush();
}

void OutputLog::line(const std::string& text) {
  std::function<void(const std::string&)> listener;
  std::vector<std::string> added;
  {
    std::lock_guard lock(mutex_);
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      write("out", l);
      lines_.push_back(l);
      added.push_back(l);
      ++total_;
      if (lines_.size() > keep_) lines_.pop_front();
    }
    listener = listener_;
  }
  if (listener)
    for (const auto& l : added) listener(l);
}

void OutputLog::detail(const std::string& text) {
  std::lock_guard lock(mutex_);
  write("detail", text);
}

void OutputLog::on_line(std::function<void(const std::string&)> listener) {
  std::lock_guard lock(mutex_);
  listener_ = std::move(listener);
}

std::vector<std::string> OutputLog::tail(std::size_t count) const {
  std::lock_guard lock(mutex_);
  std::size_t from = lines_.size() > count ? lines_.size() - count : 0;
  return {lines_.begin() + static_cast<std::ptrdiff_t>(from), lines_.end()};
}

std::size_t OutputLog::total() const {
  std::lock_guard lock(mutex_);
  return total_;
}

}  // namespace spectui
