// A spec file as text: optional front matter between `---` fences, then the Markdown body.
// Reading tolerates a UTF-8 BOM and CRLF line endings; writing restores both, so a file edited
// on Windows stays a Windows file.
#pragma once

#include "front_matter.hpp"

#include <string>
#include <string_view>

namespace chant {

struct SpecDocument {
  bool has_front_matter = false;
  FrontMatter front_matter;
  std::string body;  // '\n' line endings
  bool crlf = false;
  bool bom = false;

  // Throws FrontMatterError ("line N: ...").
  static SpecDocument parse(std::string_view text);
  std::string render() const;
};

}  // namespace chant
