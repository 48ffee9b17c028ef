// The protocol revisions this server speaks, in release order so they can be compared.
#pragma once

#include <optional>
#include <string_view>

namespace testserver {

// 2026-07-28 is the modern (stateless) revision: never negotiated by initialize, only named per
// request in params._meta (modern.cpp).
enum class Version { v2024_11_05 = 0, v2025_03_26 = 1, v2025_06_18 = 2, v2025_11_25 = 3, v2026_07_28 = 4 };

constexpr Version kLatestVersion = Version::v2025_11_25;

std::optional<Version> parse_version(std::string_view text);
std::string_view version_text(Version v);

// What initialize answers: the requested legacy revision when we speak it, else our latest.
Version negotiate_version(std::string_view requested);

}  // namespace testserver
