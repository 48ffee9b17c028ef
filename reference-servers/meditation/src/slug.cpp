#include "slug.hpp"

#include "note_text.hpp"

namespace meditation {

namespace {

std::string segment_slug(const std::string& name) {
  std::string out;
  bool dash = false;
  for (char c : fold_case(name)) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (keep) {
      if (dash && !out.empty()) out += '-';
      out += c;
      dash = false;
    } else {
      dash = true;
    }
  }
  return out.empty() ? "note" : out;
}

}  // namespace

bool is_note_file(const std::filesystem::path& path) {
  std::string ext = fold_case(path.extension().string());
  return ext == ".md" || ext == ".markdown";
}

std::string slug_for(const std::filesystem::path& relative_path) {
  std::string slug;
  std::filesystem::path stemmed = relative_path.parent_path() / relative_path.stem();
  for (const auto& part : stemmed) {
    if (part.empty()) continue;
    if (!slug.empty()) slug += '/';
    slug += segment_slug(part.string());
  }
  return slug;
}

std::string uri_for(const std::string& slug) { return std::string(kUriPrefix) + slug; }

}  // namespace meditation
