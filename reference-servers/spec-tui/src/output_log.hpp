// The output panel's lines and the log file behind them. Every line shown is also appended to
// the log (with a timestamp) as it happens, so the log survives a crash; details meant for
// debugging (full error objects, protocol exchanges) go to the log only.
#pragma once

#include <cstddef>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace spectui {

class OutputLog {
 public:
  // Keeps the last `keep` lines for display; the file keeps everything.
  explicit OutputLog(std::size_t keep = 2000) : keep_(keep) {}

  // Opens (appending, creating folders) the log file. Throws std::runtime_error naming it.
  void open(const std::filesystem::path& file);
  const std::filesystem::path& file() const { return file_; }

  // One line for the user (multi-line text becomes several lines).
  void line(const std::string& text);
  // Details for the log file only.
  void detail(const std::string& text);
  // Called with each user line as it is added (batch mode prints them).
  void on_line(std::function<void(const std::string&)> listener);

  // The last `count` display lines, oldest first, and the number of lines ever added.
  std::vector<std::string> tail(std::size_t count) const;
  std::size_t total() const;

 private:
  void write(const char* kind, const std::string& text);

  std::size_t keep_;
  mutable std::mutex mutex_;
  std::deque<std::string> lines_;
  std::size_t total_ = 0;
  std::filesystem::path file_;
  std::ofstream out_;
  std::function<void(const std::string&)> listener_;
};

}  // namespace spectui
