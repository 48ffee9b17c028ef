// Word-level text helpers shared by grouping and task routing, so both read names and
// descriptions the same way.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace tamamo {

// Lower-case runs of ASCII letters and digits ("Get the Weather!" -> get, the, weather).
std::vector<std::string> words_of(const std::string& text);
// A tool name's parts: split at '_', '-', '.', '/' and lower->upper case changes
// ("getWeather_now" -> get, weather, now).
std::vector<std::string> name_parts(const std::string& name);
// Common English words that say nothing about what a tool does; ignored when matching.
bool is_stop_word(const std::string& word);
// Lower-case letters, digits and single '_' only (other runs become '_'), trimmed of '_'.
std::string identifier_of(const std::string& text);

}  // namespace tamamo
