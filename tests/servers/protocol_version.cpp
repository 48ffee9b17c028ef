#include "protocol_version.hpp"

#include <array>
#include <utility>

namespace testserver {

namespace {
constexpr std::array<std::pair<Version, std::string_view>, 5> kVersions = {{
    {Version::v2024_11_05, "2024-11-05"},
    {Version::v2025_03_26, "2025-03-26"},
    {Version::v2025_06_18, "2025-06-18"},
    {Version::v2025_11_25, "2025-11-25"},
    {Version::v2026_07_28, "2026-07-28"},
}};
}  // namespace

std::optional<Version> parse_version(std::string_view text) {
  for (const auto& [v, t] : kVersions) {
    if (t == text) return v;
  }
  return std::nullopt;
}

std::string_view version_text(Version v) {
  for (const auto& [ver, t] : kVersions) {
    if (ver == v) return t;
  }
  return "2025-11-25";
}

Version negotiate_version(std::string_view requested) {
  auto v = parse_version(requested);
  // initialize selects legacy semantics: a modern version asked for there gets our latest legacy one.
  return v && *v <= kLatestVersion ? *v : kLatestVersion;
}

}  // namespace testserver
