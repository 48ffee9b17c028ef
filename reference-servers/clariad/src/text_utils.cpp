#include "text_utils.hpp"

#include <algorithm>
#include <array>
#include <set>

namespace clariad {
namespace {

bool is_space_or_control(unsigned char c) { return c <= 0x20 || c == 0x7f; }
bool is_ascii_alnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
char upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }
bool has_upper(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string current;
  for (char c : text) {
    if (is_space_or_control(static_cast<unsigned char>(c))) {
      if (!current.empty()) words.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) words.push_back(std::move(current));
  return words;
}

std::string join(const std::vector<std::string>& words, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < words.size(); ++i) {
    if (!out.empty()) out.push_back(' ');
    out += words[i];
  }
  return out;
}

// Punctuation that may cling to a word and ends a clause.
bool ends_clause(std::string_view word) {
  return !word.empty() && std::string_view(",;:!?.)").find(word.back()) != std::string_view::npos;
}

std::string strip_punctuation(std::string_view word) {
  const std::string_view junk = ",;:!?.()[]\"'`*_";
  while (!word.empty() && junk.find(word.back()) != std::string_view::npos) word.remove_suffix(1);
  while (!word.empty() && junk.find(word.front()) != std::string_view::npos) word.remove_prefix(1);
  return std::string(word);
}

std::string bare_lower(std::string_view word) { return to_lower_ascii(strip_punctuation(word)); }

bool is_abbreviation(std::string_view word) {
  static const std::array<std::string_view, 6> kAbbrev = {"e.g.", "i.e.", "etc.", "vs.", "approx.", "incl."};
  const std::string w = to_lower_ascii(word);
  return std::find(kAbbrev.begin(), kAbbrev.end(), w) != kAbbrev.end();
}

const std::set<std::string, std::less<>>& filler_words() {
  static const std::set<std::string, std::less<>> kFiller = {
      "a", "an", "the", "we", "i", "want", "wants", "need", "needs", "to", "build", "create",
      "develop", "design", "make", "implement", "would", "like", "should", "will", "our", "my",
      "please", "this", "is", "project", "it", "a:", "goal:", "idea:"};
  return kFiller;
}

const std::set<std::string, std::less<>>& title_stop_words() {
  static const std::set<std::string, std::less<>> kStop = {
      "that", "which", "who", "to", "so", "where", "with", "using", "by", "allowing", "enabling",
      "helping", "letting", "built", "based", "-", "--", "\xE2\x80\x93", "\xE2\x80\x94", "in", "on"};
  return kStop;
}

const std::set<std::string, std::less<>>& small_words() {
  static const std::set<std::string, std::less<>> kSmall = {"a",  "an", "and", "or", "for", "of",
                                                            "the", "to", "in", "on", "with", "at", "by"};
  return kSmall;
}

}  // namespace

std::string to_lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = lower(c);
  return out;
}

std::string collapse_whitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  for (char c : text) {
    if (is_space_or_control(static_cast<unsigned char>(c))) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out.push_back(' ');
      pending_space = false;
      out.push_back(c);
    }
  }
  return out;
}

std::size_t count_code_points(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string shorten(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const std::string_view ellipsis = "...";
  std::size_t cut = max_bytes > ellipsis.size() ? max_bytes - ellipsis.size() : 0;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  // Prefer a word boundary when one is near, so a cut does not produce half a word.
  const std::size_t space = text.rfind(' ', cut);
  if (space != std::string_view::npos && space + 40 > cut && space > 0) cut = space;
  std::string out(text.substr(0, cut));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += ellipsis;
  return out;
}

std::vector<std::string> split_sentences(std::string_view text) {
  std::vector<std::string> sentences;
  std::string current;
  std::size_t word_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    current.push_back(c);
    if (c == ' ') {
      word_start = current.size();
      continue;
    }
    const bool terminal = c == '.' || c == '!' || c == '?';
    const bool boundary = i + 1 == text.size() || text[i + 1] == ' ';
    if (terminal && boundary) {
      const std::string_view last_word = std::string_view(current).substr(word_start);
      if (c == '.' && is_abbreviation(last_word)) continue;
      std::string sentence = collapse_whitespace(current);
      if (!sentence.empty()) sentences.push_back(std::move(sentence));
      current.clear();
      word_start = 0;
    }
  }
  std::string rest = collapse_whitespace(current);
  if (!rest.empty()) sentences.push_back(std::move(rest));
  return sentences;
}

std::vector<std::string> split_items(std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line = collapse_whitespace(text.substr(start, end - start));
    start = end + 1;

    // Markdown headings, bullets and "1." / "1)" numbering carry no requirement text.
    std::string_view rest = line;
    while (!rest.empty() && (rest.front() == '#' || rest.front() == '-' || rest.front() == '*' ||
                             rest.front() == '+' || rest.front() == ' ' || rest.front() == '>')) {
      rest.remove_prefix(1);
    }
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits > 0 && digits + 1 < rest.size() && (rest[digits] == '.' || rest[digits] == ')') &&
        rest[digits + 1] == ' ') {
      rest.remove_prefix(digits + 2);
    }
    if (rest.starts_with("\xE2\x80\xA2 ")) rest.remove_prefix(4);  // "• "

    for (const std::string& sentence : split_sentences(rest)) {
      std::size_t from = 0;
      while (from <= sentence.size()) {
        std::size_t semi = sentence.find(';', from);
        if (semi == std::string::npos) semi = sentence.size();
        std::string part = collapse_whitespace(std::string_view(sentence).substr(from, semi - from));
        if (!part.empty()) items.push_back(std::move(part));
        from = semi + 1;
      }
    }
    if (end == text.size()) break;
  }
  return items;
}

std::string normalize_for_matching(std::string_view text) {
  std::string out = " ";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (is_ascii_alnum(u)) {
      out.push_back(lower(c));
    } else if (out.back() != ' ') {
      out.push_back(' ');
    }
  }
  if (out.back() != ' ') out.push_back(' ');
  return out;
}

std::size_t mention_position(const std::string& normalized, std::string_view term) {
  if (term.empty()) return std::string::npos;
  const bool prefix = term.back() == '*';
  if (prefix) term.remove_suffix(1);
  std::string needle = normalize_for_matching(term);  // " term " (padded both ends)
  if (needle.size() <= 2) return std::string::npos;   // nothing alphanumeric in the term
  if (prefix) needle.pop_back();
  return normalized.find(needle);
}

bool mentions(const std::string& normalized, std::string_view term) {
  return mention_position(normalized, term) != std::string::npos;
}

std::string title_case(std::string_view phrase) {
  std::string out;
  bool first_word = true;
  for (const std::string& word : split_words(phrase)) {
    if (!out.empty()) out.push_back(' ');
    std::string part;
    std::string cased;
    bool first_part = true;
    // Hyphenated words are cased part by part: "ai-powered" -> "AI-Powered" needs "ai" known
    // as an acronym, which we cannot know, so only the first letter of each part is raised.
    auto flush = [&](char sep) {
      if (!part.empty()) {
        const bool keep_small = !first_word && first_part && small_words().count(to_lower_ascii(part));
        if (!has_upper(part) && !keep_small) part[0] = upper(part[0]);
        cased += part;
      }
      if (sep) cased.push_back(sep);
      part.clear();
      first_part = false;
    };
    for (char c : word) {
      if (c == '-' || c == '/') {
        flush(c);
      } else {
        part.push_back(c);
      }
    }
    flush('\0');
    out += cased;
    first_word = false;
  }
  return out;
}

std::string derive_title(std::string_view description) {
  const std::vector<std::string> sentences = split_sentences(collapse_whitespace(description));
  if (sentences.empty()) return "Untitled Project";
  const std::vector<std::string> words = split_words(sentences.front());

  std::size_t start = 0;
  while (start < words.size() && start < 8 && filler_words().count(bare_lower(words[start]))) ++start;

  std::vector<std::string> kept;
  for (std::size_t i = start; i < words.size() && kept.size() < 7; ++i) {
    const std::string lowered = bare_lower(words[i]);
    if (!kept.empty() && title_stop_words().count(lowered)) break;
    std::string clean = strip_punctuation(words[i]);
    if (!clean.empty()) kept.push_back(std::move(clean));
    if (ends_clause(words[i])) break;
  }
  // A title must not end on a dangling connector ("Platform for").
  while (!kept.empty() && small_words().count(to_lower_ascii(kept.back()))) kept.pop_back();
  if (kept.empty()) return "Untitled Project";
  return title_case(join(kept, 0, kept.size()));
}

std::optional<std::string> find_audience(std::string_view description) {
  const std::vector<std::string> words = split_words(collapse_whitespace(description));
  static const std::set<std::string, std::less<>> kStop = {
      "to", "that", "who", "so", "which", "in", "with", "by", "where", "while", "using", "through",
      "via", "because", "from", "at", "on", "-", "\xE2\x80\x93", "\xE2\x80\x94"};
  static const std::set<std::string, std::less<>> kNotAudience = {"example", "instance", "free", "now",
                                                                    "years", "months", "days", "a", "the"};
  const std::size_t scan = std::min<std::size_t>(words.size(), 80);
  for (std::size_t i = 0; i + 1 < scan; ++i) {
    const std::string w = bare_lower(words[i]);
    if (w != "for" && !(w == "by" && i > 0 && bare_lower(words[i - 1]) == "used")) continue;
    std::vector<std::string> picked;
    for (std::size_t j = i + 1; j < words.size() && picked.size() < 6; ++j) {
      const std::string lw = bare_lower(words[j]);
      if (kStop.count(lw)) break;
      std::string clean = strip_punctuation(words[j]);
      if (!clean.empty()) picked.push_back(std::move(clean));
      if (ends_clause(words[j])) break;
    }
    while (!picked.empty() && small_words().count(to_lower_ascii(picked.back()))) picked.pop_back();
    if (picked.empty()) continue;
    if (picked.size() == 1 && kNotAudience.count(to_lower_ascii(picked.front()))) continue;
    if (kNotAudience.count(to_lower_ascii(picked.front())) && picked.size() == 1) continue;
    return join(picked, 0, picked.size());
  }
  return std::nullopt;
}

std::string as_item(std::string_view text) {
  std::string out = collapse_whitespace(text);
  while (!out.empty() && std::string_view(",;:.!?").find(out.back()) != std::string_view::npos) out.pop_back();
  if (!out.empty()) out[0] = upper(out[0]);
  return out;
}

std::vector<std::string> stated_capabilities(std::string_view description) {
  // Words after which a list of capabilities usually follows ("... that lets users track X").
  static const std::set<std::string, std::less<>> kMarkers = {
      "that", "which", "where", "lets", "allows", "enables", "helps", "to", "with", "including", "so"};
  // "It should send ...", "Users can ...": the modal verb introduces the capability.
  static const std::set<std::string, std::less<>> kModals = {"should", "must", "will", "can", "shall", "could", "may"};
  static const std::set<std::string, std::less<>> kEnablers = {"lets", "let", "allows", "allow", "enables",
                                                                "enable", "helps", "help"};
  static const std::set<std::string, std::less<>> kObjects = {"users", "you", "people", "teams", "them",
                                                               "us", "customers", "everyone", "members"};
  std::vector<std::string> found;
  std::set<std::string, std::less<>> seen;
  auto add = [&](std::string_view raw) {
    std::string item = as_item(raw);
    const std::size_t n = split_words(item).size();
    if (item.empty() || n > 16) return;
    if (seen.insert(to_lower_ascii(item)).second) found.push_back(shorten(item, 200));
  };

  const std::vector<std::string> sentences = split_sentences(collapse_whitespace(description));
  for (std::size_t s = 0; s < sentences.size() && found.size() < 10; ++s) {
    const std::vector<std::string> words = split_words(sentences[s]);
    std::size_t from = words.size();
    for (std::size_t i = 1; i < words.size() && i < 5; ++i) {
      if (kModals.count(bare_lower(words[i]))) {
        from = i + 1;
        if (from + 2 < words.size() && bare_lower(words[from]) == "be" && bare_lower(words[from + 1]) == "able" &&
            bare_lower(words[from + 2]) == "to") {
          from += 3;
        }
        if (from < words.size() && bare_lower(words[from]) == "also") ++from;
        break;
      }
    }
    if (from == words.size()) {
      for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string w = bare_lower(words[i]);
        // In later sentences "to"/"so" rarely start a feature list ("send reminders to guests").
        if (kMarkers.count(w) && (s == 0 || (w != "to" && w != "so"))) {
          from = i + 1;
          break;
        }
      }
    }
    if (from == words.size()) {
      if (s == 0) continue;  // the first sentence without a marker names the product only
      from = 0;              // later sentences usually describe one feature each
    }
    // "... that lets users ..." / "... allows teams to ...": neither verb nor object is a capability.
    if (from < words.size() && kEnablers.count(bare_lower(words[from]))) ++from;
    if (from < words.size() && kObjects.count(bare_lower(words[from]))) ++from;
    if (from < words.size() && bare_lower(words[from]) == "to") ++from;

    // Split the clause into list items at commas, ';' and "and"/"or".
    std::string item;
    for (std::size_t i = from; i < words.size(); ++i) {
      const std::string lw = bare_lower(words[i]);
      if (lw == "and" || lw == "or") {
        add(item);
        item.clear();
        continue;
      }
      if (!item.empty()) item.push_back(' ');
      item += words[i];
      if (!words[i].empty() && (words[i].back() == ',' || words[i].back() == ';')) {
        add(item);
        item.clear();
      }
    }
    add(item);
  }
  if (found.size() > 10) found.resize(10);
  return found;
}

}  // namespace clariad
