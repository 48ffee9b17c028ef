#include "logging.hpp"

#include <array>
#include <utility>

namespace testserver {

namespace {
constexpr std::array<std::pair<LogLevel, std::string_view>, 8> kLevels = {{
    {LogLevel::debug, "debug"},
    {LogLevel::info, "info"},
    {LogLevel::notice, "notice"},
    {LogLevel::warning, "warning"},
    {LogLevel::error, "error"},
    {LogLevel::critical, "critical"},
    {LogLevel::alert, "alert"},
    {LogLevel::emergency, "emergency"},
}};
}  // namespace

std::optional<LogLevel> parse_log_level(std::string_view text) {
  for (const auto& [level, name] : kLevels) {
    if (name == text) return level;
  }
  return std::nullopt;
}

std::string_view log_level_text(LogLevel level) {
  for (const auto& [l, name] : kLevels) {
    if (l == level) return name;
  }
  return "info";
}

void LogSink::emit(LogLevel level, std::string_view logger, json data) {
  if (!wants(level)) return;
  wire_.send(Wire::notification(
      "notifications/message",
      {{"level", log_level_text(level)}, {"logger", logger}, {"data", std::move(data)}}));
}

}  // namespace testserver
