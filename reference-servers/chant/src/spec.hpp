// A spec as chant understands it: the file's document plus the fields read from it.
#pragma once

#include "spec_document.hpp"
#include "spec_status.hpp"

#include <optional>
#include <string>
#include <vector>

namespace chant {

// Front-matter keys chant reads and writes. `dependencies` is accepted as an alias of
// `depends_on` when reading.
namespace key {
inline constexpr const char* id = "id";
inline constexpr const char* title = "title";
inline constexpr const char* status = "status";
inline constexpr const char* type = "type";
inline constexpr const char* depends_on = "depends_on";
inline constexpr const char* dependencies = "dependencies";
inline constexpr const char* labels = "labels";
inline constexpr const char* prompt = "prompt";
inline constexpr const char* created = "created";
inline constexpr const char* updated = "updated";
inline constexpr const char* completed_at = "completed_at";
inline constexpr const char* commits = "commits";
}  // namespace key

inline constexpr const char* kDefaultType = "code";

struct Spec {
  std::string id;  // the file name without ".md": the file name is authoritative
  SpecDocument doc;

  std::optional<std::string> title;  // front matter `title`, else the first '# ' heading
  Status status = Status::Pending;
  std::string type = kDefaultType;
  std::vector<std::string> depends_on;
  std::vector<std::string> labels;
  std::vector<std::string> commits;
  std::optional<std::string> prompt;
  std::optional<std::string> created;
  std::optional<std::string> updated;
  std::optional<std::string> completed_at;
  std::optional<std::string> declared_id;  // front matter `id`, if any (may disagree)
};

// Reads the fields from a parsed document. Missing optional fields take defaults (status
// pending, type code). Throws FrontMatterError ("line N: ...") for values chant cannot use:
// an unknown status, a list where one value belongs, an unsafe dependency id.
Spec interpret_spec(std::string id, SpecDocument doc);

// Parse + interpret file text in one step.
Spec parse_spec(std::string id, std::string_view text);

// First level-1 ATX heading ("# Title") outside fenced code blocks.
std::optional<std::string> first_heading(std::string_view body);

}  // namespace chant
