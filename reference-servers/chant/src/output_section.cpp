#include "output_section.hpp"

#include "markdown_lines.hpp"

namespace chant {

std::string append_output(std::string_view body, std::string_view output) {
  bool last_is_output = false;
  for_each_prose_line(body, [&](std::string_view line) {
    auto h = parse_heading(line);
    if (h && h->level <= 2) last_is_output = h->level == 2 && h->text == "Output";
  });

  // Drop trailing blank lines and the final newline; the last line with content stays intact.
  std::string out(body);
  std::size_t end = out.size();
  while (end > 0) {
    std::size_t nl = out.rfind('\n', end - 1);
    std::size_t start = nl == std::string::npos ? 0 : nl + 1;
    if (std::string_view(out).substr(start, end - start).find_first_not_of(" \t\r") !=
        std::string_view::npos) {
      break;
    }
    end = nl == std::string::npos ? 0 : nl;
  }
  out.resize(end);
  if (!out.empty()) out += "\n\n";
  if (!last_is_output) out += "## Output\n\n";
  out += output;
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

}  // namespace chant
