// Time formats used in spec files and tool output.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace chant {

// "2026-01-22T14:30:00Z": created / updated / completed_at in front matter.
std::string utc_timestamp_now();
// "2026-01-22" in local time: the date part of new spec ids (the user's working day).
std::string local_date_today();
// "2026-01-22 14:30:00" local time of a file's last modification, as chant_status reports it;
// nullopt when the file does not exist.
std::optional<std::string> local_mtime(const std::filesystem::path& file);

}  // namespace chant
