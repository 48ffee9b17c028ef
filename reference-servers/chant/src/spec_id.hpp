// Spec ids: what a safe id (or partial id) looks like, how new ids are made, how they sort,
// and how a partial id picks one spec.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace chant {

inline constexpr std::size_t kMaxIdLength = 128;

// Ids double as file names under .chant/, so anything that could name another path is
// refused: '/', '\\', "..", NUL and other control characters, a leading '.', characters
// outside [A-Za-z0-9._-], empty or over-long ids. Returns the reason, or nullopt if fine.
std::optional<std::string> id_problem(std::string_view id);

// Throws ToolError "Invalid spec id '<shown>': <reason>".
void require_safe_id(std::string_view id);

// Printable form of untrusted text for error messages (control bytes escaped, truncated).
std::string printable(std::string_view text);

// New id "<date>-<seq>-<suffix>": seq is one more than the highest sequence already used on
// that date (three digits, more if needed), suffix three random characters from [0-9a-z].
std::string generate_id(std::string_view date, const std::vector<std::string>& existing,
                        std::mt19937& random);

// Order for listings: date prefix, then the sequence number numerically, then the rest.
bool id_less(const std::string& a, const std::string& b);

struct IdMatch {
  enum class Kind { Unique, Ambiguous, None } kind = Kind::None;
  std::string id;                       // when Unique
  std::vector<std::string> candidates;  // when Ambiguous (sorted)
};

// Exact id first; else ids ending with the query; else ids containing it. The first stage with
// any hit decides: one hit is the answer, several are ambiguous.
IdMatch match_id(std::string_view query, const std::vector<std::string>& ids);

}  // namespace chant
