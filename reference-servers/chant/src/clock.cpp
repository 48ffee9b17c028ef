#include "clock.hpp"

#include <ctime>
#include <sys/stat.h>

namespace chant {

namespace {

std::string format(std::time_t t, const char* pattern, bool utc) {
  std::tm tm{};
  if (utc) {
    ::gmtime_r(&t, &tm);
  } else {
    ::localtime_r(&t, &tm);
  }
  char buf[64];
  std::size_t n = std::strftime(buf, sizeof buf, pattern, &tm);
  return std::string(buf, n);
}

}  // namespace

std::string utc_timestamp_now() { return format(std::time(nullptr), "%Y-%m-%dT%H:%M:%SZ", true); }

std::string local_date_today() { return format(std::time(nullptr), "%Y-%m-%d", false); }

std::optional<std::string> local_mtime(const std::filesystem::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return std::nullopt;
  return format(st.st_mtime, "%Y-%m-%d %H:%M:%S", false);
}

}  // namespace chant
