#pragma once
// Reading the requirement checklists in tests: table cells, the keyword -> level mapping and the
// mode letters of the Test column, as docs/requirements.md documents them. Shared by the catalog
// tests of the legacy versions and of 2026-07-28.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace mcpspec::test::checklist {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) FAIL("cannot open " << path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "| a | b | c |" -> {"a", "b", "c"}; cells never contain " | " in the checklists.
inline std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string body = line.substr(1, line.size() - 2);
  size_t start = 0;
  while (true) {
    size_t bar = body.find('|', start);
    std::string cell = body.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    size_t a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
    cells.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return cells;
}

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The mapping docs/requirements.md documents: the strongest keyword of the row decides.
inline std::string level_for_keyword(const std::string& kw) {
  static const std::regex must(R"(\bMUST\b)"), should(R"(\bSHOULD\b)"), may(R"(\bMAY\b)");
  if (std::regex_search(kw, must)) return "MUST";
  if (std::regex_search(kw, should)) return "SHOULD";
  if (contains(kw, "(lc)")) return "SHOULD";
  if (std::regex_search(kw, may)) return "MAY";
  return "INFO";
}

// Mode letters of a Test cell outside explanatory parentheses, e.g. "S (tools) / C~" -> S, C~.
// A parenthesis that itself starts with a mode letter ("N (S~ if ...)") counts.
inline std::vector<std::string> mode_tokens(const std::string& test) {
  std::string outside;
  int depth = 0;
  for (size_t i = 0; i < test.size(); ++i) {
    char c = test[i];
    if (c == '(') {
      if (depth == 0 && i + 1 < test.size() && std::string("SCBN").find(test[i + 1]) != std::string::npos &&
          (i + 2 >= test.size() || test[i + 2] == ' ' || test[i + 2] == '~')) {
        outside += ' ';
        outside += test[i + 1];
        if (i + 2 < test.size() && test[i + 2] == '~') outside += '~';
        outside += ' ';
      }
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (depth == 0) {
      outside += c;
    }
  }
  static const std::regex tok(R"((^|[^A-Za-z])([SCBN]~?)(?![A-Za-z]))");
  std::vector<std::string> out;
  for (std::sregex_iterator it(outside.begin(), outside.end(), tok), end; it != end; ++it)
    out.push_back((*it)[2]);
  return out;
}

// One requirement row of a checklist and the number of the heading it is under ("1a", "11e", ...).
struct SectionRow {
  std::string section, keyword, test, ver;
};

// The rows of a checklist by id, up to the first heading numbered above `last_section`; each row has
// `cells` cells of which the 2nd, 5th and 6th are keyword, Test and Ver.
inline std::map<std::string, SectionRow> rows_by_section(const std::string& path, int last_section, size_t cells,
                                                         const std::string& id_pattern) {
  std::istringstream in(read_text(path));
  static const std::regex heading(R"(^#{2,3} ([0-9]+)([a-z]?)\. )");
  const std::regex row("^\\| (" + id_pattern + ") \\|");
  std::map<std::string, SectionRow> out;
  std::string section, line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, heading)) {
      if (std::stoi(m[1]) > last_section) break;
      section = std::string(m[1]) + std::string(m[2]);
      continue;
    }
    if (!std::regex_search(line, m, row)) continue;
    auto parts = split_cells(line);
    REQUIRE(parts.size() == cells);
    CHECK(out.count(m[1]) == 0);
    out[m[1]] = SectionRow{section, parts[1], parts[4], parts[5]};
  }
  return out;
}

// The catalog's testable value ("server", "client", "both", "none") and heuristic flag of a Test cell.
inline std::pair<std::string, bool> testability(const std::string& test) {
  std::set<char> letters;
  bool heuristic = false;
  for (const auto& t : mode_tokens(test)) {
    letters.insert(t[0]);
    heuristic = heuristic || t.size() > 1;
  }
  const bool both = letters.count('B') || (letters.count('S') && letters.count('C'));
  return {both ? "both" : letters.count('S') ? "server" : letters.count('C') ? "client" : "none", heuristic};
}

}  // namespace mcpspec::test::checklist
