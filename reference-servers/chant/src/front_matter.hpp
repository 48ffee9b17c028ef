// The YAML-style front matter of a spec file: a deliberately small subset of YAML that people
// can edit by hand. Entries are kept as their original lines, so keys chant does not know (and
// values it never touches) are written back exactly as the user left them.
//
// Understood value forms: plain, 'single-quoted' and "double-quoted" scalars, `~`/`null`/empty
// for no value, flow lists `[a, "b c"]` and block lists (`key:` followed by `  - item` lines).
// Anything else (nested maps, block scalars) is kept verbatim and only rejected if chant needs
// to read that key.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace chant {

// Message always starts with "line N: " (line numbers are those of the whole file).
class FrontMatterError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class FrontMatter {
 public:
  // `lines` are the lines between the `---` fences; `first_line` is the file line number of
  // lines[0]. Throws FrontMatterError for lines that are not `key: value` shaped and for
  // duplicate keys.
  static FrontMatter parse(const std::vector<std::string>& lines, int first_line);

  std::vector<std::string> render() const;

  bool has(std::string_view key) const;
  std::vector<std::string> keys() const;
  int line_of(std::string_view key) const;  // 0 when absent

  // nullopt when the key is absent or null. Throws FrontMatterError when the value is a list
  // or a structure, or badly quoted.
  std::optional<std::string> scalar(std::string_view key) const;
  // nullopt when absent; a single scalar reads as a one-item list, null as an empty list.
  std::optional<std::vector<std::string>> list(std::string_view key) const;

  // Replace (keeping position and any comment lines that followed) or append.
  void set_scalar(std::string_view key, const std::string& value);
  void set_list(std::string_view key, const std::vector<std::string>& items);
  void erase(std::string_view key);

 private:
  struct Entry {
    std::string key;  // empty for comment / blank lines before the first key
    std::vector<std::string> lines;
    int line = 0;
  };
  const Entry* find(std::string_view key) const;
  void replace_value(std::string_view key, const std::string& rendered_line);

  std::vector<Entry> entries_;
};

// Renders a scalar so that parsing it back yields exactly `value`: plain when unambiguous,
// otherwise double-quoted with escapes.
std::string render_scalar(const std::string& value);
std::string render_flow_list(const std::vector<std::string>& items);

// Parses one inline value (what follows `key:`), for tests and the config reader.
// Returns nullopt for null. Throws FrontMatterError("line N: ...").
std::optional<std::string> parse_scalar_text(std::string_view text, int line);
std::vector<std::string> parse_flow_list_text(std::string_view text, int line);

}  // namespace chant
