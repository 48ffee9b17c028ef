// notifications/message with the client's chosen threshold (logging/setLevel).
#pragma once

#include <atomic>
#include <optional>
#include <string_view>

#include "json_text.hpp"
#include "wire.hpp"

namespace testserver {

// Ordered by severity, as in syslog (RFC 5424), least severe first.
enum class LogLevel { debug, info, notice, warning, error, critical, alert, emergency };

std::optional<LogLevel> parse_log_level(std::string_view text);
std::string_view log_level_text(LogLevel level);

class LogSink {
 public:
  // `enabled` false: the run does not serve logging, so nothing is ever sent.
  // `ignore_level` true: the log-level-ignored fault.
  LogSink(Wire& wire, bool enabled, bool ignore_level)
      : wire_(wire), enabled_(enabled), ignore_level_(ignore_level) {}

  void set_level(LogLevel level) { threshold_.store(level); }
  // Lets callers skip building a message nobody will see (tool arguments can be megabytes).
  bool wants(LogLevel level) const { return enabled_ && (ignore_level_ || level >= threshold_.load()); }
  void emit(LogLevel level, std::string_view logger, json data);

 private:
  Wire& wire_;
  bool enabled_;
  bool ignore_level_;
  // Before any setLevel: info, so a tool call shows one log line and debug stays quiet.
  std::atomic<LogLevel> threshold_{LogLevel::info};
};

}  // namespace testserver
