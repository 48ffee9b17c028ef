#include "words.hpp"

#include <cctype>

namespace tamamo {

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (unsigned char c : text) {
    if (std::isalnum(c)) {
      current += static_cast<char>(std::tolower(c));
    } else if (!current.empty()) {
      out.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

std::vector<std::string> name_parts(const std::string& name) {
  std::string spaced;
  for (std::size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (i > 0 && std::isupper(c) && std::islower(static_cast<unsigned char>(name[i - 1]))) spaced += ' ';
    spaced += static_cast<char>(c);
  }
  return words_of(spaced);
}

bool is_stop_word(const std::string& word) {
  static const std::set<std::string> stop = {
      "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "given", "in",
      "into", "is", "it", "its", "me", "my", "of", "on", "or", "please", "the", "this", "that",
      "to", "tool", "tools", "use", "using", "with", "what", "which", "you", "your"};
  return word.size() < 2 || stop.count(word) > 0;
}

std::string identifier_of(const std::string& text) {
  std::string out;
  for (const std::string& part : name_parts(text)) {
    if (!out.empty()) out += '_';
    out += part;
  }
  return out;
}

}  // namespace tamamo
