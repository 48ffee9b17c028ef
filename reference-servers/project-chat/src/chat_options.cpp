#include "chat_options.hpp"

#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace project_chat {

mcpref::BackoffPolicy ChatOptions::default_backoff() {
  // 100, 200, 400, 800 ms (+ up to 25 % jitter): a crashed server gets four more chances
  // within about two seconds, then the user hears why it is unavailable.
  mcpref::BackoffPolicy p;
  p.initial = std::chrono::milliseconds(100);
  p.factor = 2.0;
  p.max_delay = std::chrono::milliseconds(2000);
  p.jitter = 0.25;
  p.max_retries = 4;
  return p;
}

void apply_settings(ChatOptions& options, const mcpref::Json& settings) {
  if (settings.is_null()) return;
  if (!settings.is_object()) throw std::invalid_argument("settings must be a JSON object");
  auto millis = [&](const char* key, std::chrono::milliseconds& target, long long min) {
    if (!settings.contains(key)) return;
    const auto& v = settings[key];
    if (!v.is_number_integer() || v.get<long long>() < min || v.get<long long>() > 3600000)
      throw std::invalid_argument(std::string(key) + " must be an integer from " + std::to_string(min) +
                                  " to 3600000 (milliseconds)");
    target = std::chrono::milliseconds(v.get<long long>());
  };
  millis("cache_ttl_ms", options.cache_ttl, 0);
  millis("resource_timeout_ms", options.resource_timeout, 1);
  millis("tool_timeout_ms", options.tool_timeout, 1);
  millis("initialize_timeout_ms", options.initialize_timeout, 1);
}

std::string default_server_command() {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto beside = self.parent_path() / "meditation-mcp";
    if (::access(beside.c_str(), X_OK) == 0) {
      std::string quoted = "'";
      for (char c : beside.string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      return quoted + "'";
    }
  }
  return "meditation-mcp";
}

void apply_mutation([[maybe_unused]] ChatOptions& options) {
#if defined(PROJECT_CHAT_MUTANT_NO_RESTART)
  options.restart = false;  // a crashed server is never started again
#elif defined(PROJECT_CHAT_MUTANT_NO_BACKOFF)
  options.backoff.factor = 1.0;  // retries at a fixed short interval, never backing off
  options.backoff.jitter = 0.0;
#elif defined(PROJECT_CHAT_MUTANT_TIMEOUT_IGNORED)
  // Waits an hour for every answer: in effect, no timeout.
  options.resource_timeout = options.tool_timeout = options.initialize_timeout = std::chrono::milliseconds(3600000);
#endif
}

}  // namespace project_chat
